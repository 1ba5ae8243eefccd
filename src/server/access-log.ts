import { Chalk } from 'chalk';
import type { LogFormat } from './options.js';
import { realNow } from '../contract/clock.js';

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

/** The record of a request that arrived at `started` (`performance.now()`) and is answered at `now` (epoch ms). */
export function accessRecord(
  req: { method: string; url: string },
  status: number,
  at: { now: number; started: number },
  keyId: string | null,
  requestId: string,
): AccessRecord {
  const duration_ms = Math.round((performance.now() - at.started) * 1000) / 1000;
  return { time: new Date(at.now).toISOString(), method: req.method, path: req.url, status, duration_ms, key_id: keyId, request_id: requestId };
}

export interface Logger {
  /** False for `--log off`: callers skip building records nobody writes. */
  readonly on: boolean;
  access(record: AccessRecord): void;
  /** An unexpected failure: its stack goes to the log stream only. */
  error(err: unknown, requestId: string): void;
}

const OFF: Logger = { on: false, access() {}, error() {} };

/** Query parameters whose values never reach the log: `signature`, and any name with `secret`, `token` or `password` in it. */
const SECRET_PARAM = /^signature$|secret|token|password/;

function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * The path with the values of secret query parameters replaced by `***` (decisions §8: secrets
 * never), whatever percent-encoding the parameter name was sent in; the rest is kept as sent.
 */
export function maskPath(path: string): string {
  const q = path.indexOf('?');
  if (q === -1) return path;
  const parts = path.slice(q + 1).split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    return SECRET_PARAM.test(paramName(name)) ? `${name}=***` : part;
  });
  return `${path.slice(0, q)}?${parts.join('&')}`;
}

/** Where log lines go: a stream, or the CLI's stderr (`serve`'s, which is the process's in the bin). */
export interface LogSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** A logger writing one line per record: JSON objects, a readable line (coloured on a TTY), or nothing. */
export function createLogger(format: LogFormat, stream: LogSink): Logger {
  if (format === 'off') return OFF;
  const masked = (r: AccessRecord): AccessRecord => ({ ...r, path: maskPath(r.path) });
  const stack = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message) : String(err));
  if (format === 'json') {
    return {
      on: true,
      access: (r) => stream.write(`${JSON.stringify(masked(r))}\n`),
      error: (err, requestId) => stream.write(`${JSON.stringify({ time: realNow().toISOString(), level: 'error', request_id: requestId, error: stack(err) })}\n`),
    };
  }
  const tty = stream.isTTY === true && !process.env.NO_COLOR;
  const c = new Chalk({ level: tty ? 1 : 0 });
  const paint = (status: number) => (status >= 500 ? c.red : status >= 400 ? c.yellow : c.green)(String(status));
  return {
    on: true,
    access: (r) =>
      stream.write(
        `${c.dim(r.time)} ${c.bold(r.method)} ${maskPath(r.path)} ${paint(r.status)} ${r.duration_ms}ms key=${r.key_id ?? '-'} req=${r.request_id}\n`,
      ),
    error: (err, requestId) => stream.write(`${c.red('error')} req=${requestId} ${stack(err)}\n`),
  };
}
