/**
 * `--query EXPR`: a JMESPath expression applied to what would be printed as JSON (after
 * `--fields` and `--raw`), as the AWS CLI's `--query` is. The library loads only when a query is
 * given (synchronously, so the option's parser can reject a bad expression before any request).
 */
import { createRequire } from 'node:module';
import { UsageError } from '../errors.js';

type JmesPath = typeof import('@jmespath-community/jmespath');

let lib: JmesPath | undefined;
const jmespath = (): JmesPath => (lib ??= createRequire(import.meta.url)('@jmespath-community/jmespath') as JmesPath);

const HINT = 'JMESPath syntax: https://jmespath.site (e.g. --query "[].email", --query "[?status==`1`].id")';

/** The option's parser: answers `expr` when it compiles, else a usage error with the parser's message. */
export function parseQuery(expr: string): string {
  try {
    jmespath().compile(expr);
  } catch (err) {
    throw new UsageError(`invalid --query '${expr}': ${(err as Error).message}`, HINT);
  }
  return expr;
}

/** `value` through the query; an evaluation error (a function given the wrong type) is a usage error. */
export function applyQuery(value: unknown, expr: string): unknown {
  try {
    return jmespath().search(value as Parameters<JmesPath['search']>[0], expr);
  } catch (err) {
    throw new UsageError(`--query '${expr}' failed: ${(err as Error).message}`, HINT);
  }
}
