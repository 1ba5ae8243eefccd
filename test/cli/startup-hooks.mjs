// Module loader hooks for startup.test.ts: appends the URL of every file module the program
// resolves (one a line) to the file given at registration.
import { appendFileSync } from 'node:fs';

let out;

export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith('file:')) appendFileSync(out, `${resolved.url}\n`);
  return resolved;
}
