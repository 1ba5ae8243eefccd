import { describe, expect, it } from 'vitest';
import { CaptureError, headersFrom, parseHeaderLine, parseRawRequest } from '../../src/webhooks/capture.js';

const BODY = '{"event":"events.deleted","data":{"id":3,"calendar_id":1}}';

describe('parseRawRequest', () => {
  it('reads the request line, headers (lower-cased) and the body bytes after a CRLF blank line', () => {
    const raw = Buffer.from(`POST /hooks HTTP/1.1\r\nHost: localhost:8090\r\nX-Webhook-Id: abc\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`);
    const c = parseRawRequest(raw);
    expect(c.headers).toEqual({ host: 'localhost:8090', 'x-webhook-id': 'abc', 'content-length': String(BODY.length) });
    expect(c.body.toString()).toBe(BODY);
  });

  it('takes LF line ends and a capture without a request line; without Content-Length the body is the rest', () => {
    const c = parseRawRequest(Buffer.from(`X-Webhook-Id: abc\n\n${BODY}\n`));
    expect(c.headers).toEqual({ 'x-webhook-id': 'abc' });
    expect(c.body.toString()).toBe(`${BODY}\n`);
  });

  it('cuts the body at Content-Length (a trailing newline an editor added is not part of it)', () => {
    const c = parseRawRequest(Buffer.from(`X-A: 1\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}\n`));
    expect(c.body.toString()).toBe(BODY);
  });

  it('keeps non-UTF-8 body bytes exactly', () => {
    const body = Buffer.from([0x7b, 0xe9, 0xff, 0x7d]);
    const c = parseRawRequest(Buffer.concat([Buffer.from('Content-Length: 4\r\n\r\n'), body]));
    expect(c.body.equals(body)).toBe(true);
  });

  it('decodes a chunked body', () => {
    const c = parseRawRequest(Buffer.from('Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n'));
    expect(c.body.toString()).toBe('hello world');
  });

  it('refuses a short body, a bad chunk, a bad header line and an empty capture', () => {
    expect(() => parseRawRequest(Buffer.from('Content-Length: 99\r\n\r\n{}'))).toThrow(/Content-Length is 99 but the capture has 2 body bytes/);
    expect(() => parseRawRequest(Buffer.from('Transfer-Encoding: chunked\r\n\r\nzz\r\n'))).toThrow(CaptureError);
    expect(() => parseRawRequest(Buffer.from('Transfer-Encoding: chunked\r\n\r\n9\r\nabc'))).toThrow(/cut short/);
    expect(() => parseRawRequest(Buffer.from('POST / HTTP/1.1\r\nnot a header\r\n\r\n'))).toThrow(/not a header line/);
    expect(() => parseRawRequest(Buffer.from(''))).toThrow(/no header lines/);
  });
});

describe('header lines', () => {
  it('splits Name: value, trimming the value', () => {
    expect(parseHeaderLine('X-Webhook-Id:  abc  ')).toEqual(['x-webhook-id', 'abc']);
    expect(() => parseHeaderLine('X Webhook: a')).toThrow(CaptureError);
  });

  it('joins a repeated header as node:http does', () => {
    expect(headersFrom(['A: 1', 'a: 2'])).toEqual({ a: '1, 2' });
  });
});
