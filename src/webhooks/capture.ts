/**
 * A captured delivery read back: either a raw HTTP/1.1 request (request line optional, header
 * lines, a blank line, the body bytes), or `Name: value` header lines given one by one. Header
 * names become lower case, like node:http's; the body stays bytes, since the signature covers
 * the bytes exactly as sent.
 */

export interface Capture {
  headers: Record<string, string>;
  body: Buffer;
}

/** A capture that cannot be read; the message says what is wrong with it. */
export class CaptureError extends Error {
  override name = 'CaptureError';
}

const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;
const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/\d(\.\d)?$/;

/** `Name: value` → [lower-case name, value]; throws on anything else. */
export function parseHeaderLine(line: string): [string, string] {
  const m = HEADER_LINE.exec(line);
  if (!m) throw new CaptureError(`not a header line 'Name: value': '${line.slice(0, 80)}'`);
  return [m[1].toLowerCase(), m[2]];
}

/** Header lines → a header bag; a repeated name joins its values with `, ` as node:http does. */
export function headersFrom(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const [name, value] = parseHeaderLine(line);
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

/** Where the header section ends: the first empty line (CRLF or LF line ends). */
function headerEnd(raw: Buffer): { end: number; next: number } {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { end: crlf, next: crlf + 4 };
  if (lf >= 0) return { end: lf, next: lf + 2 };
  return { end: raw.length, next: raw.length };
}

/** A chunked body (`Transfer-Encoding: chunked`) → its bytes. */
function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = lineEnd < 0 ? NaN : parseInt(raw.subarray(at, lineEnd).toString('latin1').split(';')[0], 16);
    if (Number.isNaN(size)) throw new CaptureError('the chunked body is malformed');
    if (size === 0) return Buffer.concat(parts);
    const start = lineEnd + 2;
    if (start + size > raw.length) throw new CaptureError('the chunked body is cut short');
    parts.push(raw.subarray(start, start + size));
    at = start + size + 2;
  }
}

/**
 * A raw HTTP request as captured → its headers and body. With `Content-Length` the body is
 * exactly that many bytes (anything after it, such as a newline an editor added, is ignored); a
 * chunked body is decoded; otherwise the body is everything after the blank line.
 */
export function parseRawRequest(raw: Buffer): Capture {
  const { end, next } = headerEnd(raw);
  const lines = raw.subarray(0, end).toString('latin1').split(/\r?\n/);
  while (lines.length && lines[0] === '') lines.shift();
  if (lines.length && REQUEST_LINE.test(lines[0])) lines.shift();
  if (!lines.length) throw new CaptureError('the capture has no header lines');
  const headers = headersFrom(lines);
  let body = raw.subarray(next);
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (!/^\d+$/.test(headers['content-length']) || length > body.length) {
      throw new CaptureError(`Content-Length is ${headers['content-length']} but the capture has ${body.length} body bytes`);
    }
    body = body.subarray(0, length);
  }
  return { headers, body: Buffer.from(body) };
}
