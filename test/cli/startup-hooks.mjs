// Module loader hooks for startup.test.ts: appends the package of every module the program
// resolves from node_modules (one name a line) to the file given at registration.
import { appendFileSync } from 'node:fs';

let out;

export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url);
  if (pkg) appendFileSync(out, `${pkg[1]}\n`);
  return resolved;
}
