/**
 * `--dry-run`: a request as a `curl` command line that would send it. Every argument is
 * single-quoted for POSIX shells (a `'` becomes `'\''`), so any body survives copy and paste.
 */

/** A request the client would send (the body already serialised). */
export interface PlannedRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  body?: string;
}

/** Quotes `s` for a POSIX shell; plain words stay bare. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `curl -X METHOD URL` with the key id, the key secret (`****` unless `showSecret`), the
 * content type and `--data-raw` (curl's `--data` would read a body starting with `@` as a file
 * name). Other headers (accept, user agent, request id) are left out.
 */
export function curlCommand(req: PlannedRequest, opts: { showSecret?: boolean } = {}): string {
  const header = (name: string) => Object.entries(req.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  const args = ['curl', '-X', req.method, req.url];
  const id = header('x-access-key-id');
  const secret = header('x-access-key-secret');
  const type = header('content-type');
  if (id !== undefined) args.push('-H', `X-Access-Key-Id: ${id}`);
  if (secret !== undefined) args.push('-H', `X-Access-Key-Secret: ${opts.showSecret ? secret : '****'}`);
  if (type !== undefined) args.push('-H', `Content-Type: ${type}`);
  if (req.body !== undefined) args.push('--data-raw', req.body);
  return args.map(shellQuote).join(' ');
}
