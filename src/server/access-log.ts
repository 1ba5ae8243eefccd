import { Chalk } from 'chalk';
import type { LogFormat } from './options.js';

/** One access-log record (decisions §8). `path` includes the query string; secrets never appear. */
export interface AccessRecord {
  time: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  key_id: string | null;
  request_id: string;
}

export interface Logger {
  access(record: AccessRecord): void;
  /** An unexpected failure: its stack goes to the log stream only. */
  error(err: unknown, requestId: string): void;
}

const OFF: Logger = { access() {}, error() {} };

/** A logger writing one line per record: JSON objects, a readable line (coloured on a TTY), or nothing. */
export function createLogger(format: LogFormat, stream: NodeJS.WritableStream): Logger {
  if (format === 'off') return OFF;
  const stack = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err));
  if (format === 'json') {
    return {
      access: (r) => stream.write(`${JSON.stringify(r)}\n`),
      error: (err, requestId) => stream.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', request_id: requestId, error: stack(err) })}\n`),
    };
  }
  const tty = (stream as { isTTY?: boolean }).isTTY === true && !process.env.NO_COLOR;
  const c = new Chalk({ level: tty ? 1 : 0 });
  const paint = (status: number) => (status >= 500 ? c.red : status >= 400 ? c.yellow : c.green)(String(status));
  return {
    access: (r) =>
      stream.write(
        `${c.dim(r.time)} ${c.bold(r.method)} ${r.path} ${paint(r.status)} ${r.duration_ms}ms key=${r.key_id ?? '-'} req=${r.request_id}\n`,
      ),
    error: (err, requestId) => stream.write(`${c.red('error')} req=${requestId} ${stack(err)}\n`),
  };
}
