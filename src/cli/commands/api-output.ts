/** How `confctl api` prints an answer, and what a non-2xx answer exits with. */
import { STATUS_CODES } from 'node:http';
import { CliError } from '../context.js';
import { exitCodeForStatus } from '../errors.js';
import type { RawAnswer, RawRequest } from './api-http.js';

/** The body as printed: JSON pretty with two spaces, other text as is (ending in a newline). */
export function bodyText(answer: Pick<RawAnswer, 'headers' | 'text'>): string {
  if (!answer.text) return '';
  if ((answer.headers['content-type'] ?? '').includes('json')) {
    try {
      return `${JSON.stringify(JSON.parse(answer.text), null, 2)}\n`;
    } catch {
      // not JSON after all: print it as it came
    }
  }
  return answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`;
}

/** A non-2xx answer as an error whose exit code is the status's. */
export function statusError(req: RawRequest, answer: RawAnswer): CliError {
  const path = new URL(req.url).pathname + new URL(req.url).search;
  return new CliError(`${req.method} ${path} answered ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trim(), exitCodeForStatus(answer.status));
}

/** `HTTP/1.1 200 OK` and the headers, then an empty line. */
export function headText(answer: RawAnswer): string {
  const lines = Object.entries(answer.headers).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\n${lines.join('\n')}\n\n`;
}
