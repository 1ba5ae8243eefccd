/** How `confctl api` prints an answer, and what a non-2xx answer exits with. */
import { STATUS_CODES } from 'node:http';
import type { FieldErrors } from '../../../client/errors.js';
import { CliError } from '../../context.js';
import { exitCodeForStatus } from '../../errors.js';
import type { RawAnswer, RawRequest } from './http.js';

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

/** A validation failure's `message` and `errors` (decisions §2), when the answer is one. */
function validationOf(answer: Pick<RawAnswer, 'headers' | 'text'>): { message: string; errors?: FieldErrors } | undefined {
  if (!(answer.headers['content-type'] ?? '').includes('json')) return undefined;
  try {
    const body = JSON.parse(answer.text) as { message?: unknown; errors?: unknown };
    if (typeof body.message !== 'string') return undefined;
    return { message: body.message, errors: body.errors && typeof body.errors === 'object' ? (body.errors as FieldErrors) : undefined };
  } catch {
    return undefined;
  }
}

/**
 * A non-2xx answer as an error whose exit code is the status's; a validation failure's message
 * and its fields go with it, so stderr says why even when stdout is piped away.
 */
export function statusError(req: RawRequest, answer: RawAnswer): CliError {
  const path = new URL(req.url).pathname + new URL(req.url).search;
  const head = `${req.method} ${path} answered ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`.trim();
  const invalid = validationOf(answer);
  return new CliError(invalid ? `${head}: ${invalid.message}` : head, exitCodeForStatus(answer.status), undefined, invalid?.errors);
}

/** `HTTP/1.1 200 OK` and the headers, then an empty line. */
export function headText(answer: RawAnswer): string {
  const lines = Object.entries(answer.headers).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\n${lines.join('\n')}\n\n`;
}
