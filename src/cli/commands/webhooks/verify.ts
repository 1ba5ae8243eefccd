/** Runs `confctl webhooks verify`: reads a captured delivery and checks its signature and age. */
import { readFileSync } from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { type Capture, CaptureError, headersFrom, parseRawRequest } from '../../../webhooks/capture.js';
import { verify } from '../../../webhooks/signature.js';
import { type CliContext, CliError, EXIT, UsageError } from '../../context.js';

/** Parsed flags of `confctl webhooks verify`. */
export interface VerifyOptions {
  secret: string;
  maxAgeSeconds: number;
  /** A raw HTTP request file; absent: `headers` and `bodyFile`, or else stdin. */
  file?: string;
  headers: string[];
  bodyFile?: string;
}

function readBytes(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new UsageError(`cannot read ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The capture named by the options: `--header`/`--body`, a request file, or a request on stdin. */
async function readCapture(options: VerifyOptions, ctx: CliContext): Promise<Capture> {
  try {
    if (options.bodyFile !== undefined) return { headers: headersFrom(options.headers), body: readBytes(options.bodyFile, '--body') };
    if (options.file !== undefined) return parseRawRequest(readBytes(options.file, 'the capture'));
    if (ctx.streams.stdinIsTTY) throw new UsageError('give a captured request FILE, pipe one into stdin, or use --header and --body');
    return parseRawRequest(await buffer(ctx.streams.stdin));
  } catch (err) {
    if (err instanceof CaptureError) throw new UsageError(`cannot read the delivery: ${err.message}`);
    throw err;
  }
}

/**
 * Prints `authentic and fresh (N s old): ID at TIMESTAMP` and succeeds, or fails with exit 6 (the code of a refused
 * request) saying why: the delivery is invalid, as `listen` would answer it 400.
 */
export async function runVerify(options: VerifyOptions, ctx: CliContext): Promise<void> {
  const capture = await readCapture(options, ctx);
  const verdict = verify(capture.headers, capture.body, options.secret, { now: ctx.now(), maxAgeSeconds: options.maxAgeSeconds });
  if (!verdict.ok) throw new CliError(`not valid: ${verdict.message}`, EXIT.validation);
  const what = options.maxAgeSeconds === 0 ? 'authentic (age not checked)' : `authentic and fresh (${Math.max(0, Math.round(verdict.ageSeconds))} s old)`;
  ctx.streams.stdout.write(`${what}: ${verdict.id} at ${verdict.timestamp}\n`);
}
