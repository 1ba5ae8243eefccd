/**
 * Downloads a recording through its temporary URL (node:http), streamed to a file (or stdout
 * for `-`) via `pipeline`, never held in memory. A progress bar goes to stderr only when stderr
 * is a terminal; a one-line summary always does. A refused link is exit 3 (403) or 4 (404), a
 * broken connection exit 8; a partly written file is removed.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NetworkError } from '../../../client/errors.js';
import { type HttpAnswer, readText, request } from '../../../client/http.js';
import type { CliContext } from '../../context.js';
import { CliError, EXIT, UsageError } from '../../errors.js';
import { formatBytes, progressBar } from '../../progress/bar.js';

type Out = CliContext['streams']['stdout'];

/** A Writable over the streams' stdout that honours its backpressure and never ends it. */
function outWritable(out: Out): Writable {
  const emitter = out as Out & { once?: (event: string, fn: () => void) => unknown };
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (out.write(chunk as unknown as string) === false && typeof emitter.once === 'function') emitter.once('drain', () => callback());
      else callback();
    },
  });
}

function refused(status: number, text: string): CliError {
  const detail = text.trim().split('\n')[0].slice(0, 200) || `HTTP ${status}`;
  if (status === 403) return new CliError(`recording link refused (403): ${detail}`, EXIT.auth, 'the link expired or was altered; get a new one (raise --expiry)');
  if (status === 404) return new CliError(`recording file not found (404): ${detail}`, EXIT.notFound, 'check the ids; the file may have been removed');
  return new CliError(`recording download failed (${status}): ${detail}`, EXIT.unexpected);
}

/** Fetches `url` into `file` (`-` is stdout) and answers the bytes written. */
export async function downloadRecording(url: string, file: string, ctx: CliContext, timeoutMs: number): Promise<number> {
  const { streams } = ctx;
  if (file === '-' && streams.stdoutIsTTY) throw new UsageError('refusing to write a recording to a terminal', 'give --download FILE, or redirect stdout');
  const started = ctx.now().getTime();
  let res: HttpAnswer;
  try {
    res = await request({ method: 'GET', url, headers: {}, idleTimeoutMs: timeoutMs });
  } catch (err) {
    throw new NetworkError((err as Error).message, 'GET', url.split('?')[0], false, 1, { cause: err });
  }
  if (res.status !== 200) throw refused(res.status, await readText(res.body).catch(() => ''));

  const length = Number(res.headers['content-length']);
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  const bar = (streams.stderr as Out & { isTTY?: boolean }).isTTY ? progressBar(streams.stderr, { total, width: streams.width }) : undefined;
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      bar?.update(bytes);
      callback(null, chunk);
    },
  });
  const dest = file === '-' ? outWritable(streams.stdout) : createWriteStream(file);
  let writeError: NodeJS.ErrnoException | undefined;
  dest.on('error', (err: NodeJS.ErrnoException) => (writeError = err));
  try {
    await pipeline(res.body, counter, dest);
    if (total !== undefined && bytes !== total) throw new Error(`connection closed after ${bytes} of ${total} bytes`);
  } catch (err) {
    bar?.done();
    if (file !== '-') await rm(file, { force: true });
    if (writeError) throw new CliError(`cannot write ${file}: ${writeError.code ?? writeError.message}`, EXIT.unexpected);
    throw new NetworkError(`download interrupted: ${(err as Error).message}`, 'GET', url.split('?')[0], false, 1, { cause: err });
  }
  bar?.done();
  const seconds = ((ctx.now().getTime() - started) / 1000).toFixed(1);
  streams.stderr.write(`Downloaded ${bytes} bytes (${formatBytes(bytes)}) to ${file === '-' ? 'stdout' : file} in ${seconds} s\n`);
  return bytes;
}
