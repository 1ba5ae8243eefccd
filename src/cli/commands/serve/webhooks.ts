/** The webhook sender `serve` runs beside the HTTP server (decisions §13), on either store. */
import type { WebhookSenderStore } from '../../../store/port.js';
import { parseDelays } from '../../../webhooks/schedule.js';
import { createSender, type Sender } from '../../../webhooks/sender.js';
import { UsageError } from '../../context.js';
import { realNow } from '../../../contract/clock.js';

/**
 * `CONFCTL_WEBHOOK_RETRY_DELAYS` (comma-separated milliseconds, e.g. `200,200,200,200`) replaces
 * the §13 schedule of 10 s, 30 s, 2 min and 10 min: for tests and demonstrations, which should
 * not wait minutes for a retry. Invalid is exit 2, before anything starts.
 */
export function retryDelaysFrom(env: Record<string, string | undefined>): number[] | undefined {
  const text = env.CONFCTL_WEBHOOK_RETRY_DELAYS;
  if (text === undefined || text === '') return undefined;
  const delays = parseDelays(text);
  if (!delays) throw new UsageError(`CONFCTL_WEBHOOK_RETRY_DELAYS must be comma-separated milliseconds such as 10000,30000,120000,600000, not '${text}'`);
  return delays;
}

/**
 * How `serve`'s own lines (the webhook sender's, start-up warnings and notes) go to its log
 * stream: with `--log json` each is one JSON object (`time`, `level`, `source`, `message`), so
 * every line of a JSON log is JSON; otherwise the line as it is.
 */
export function serveLog(format: 'json' | 'pretty' | 'off', write: (text: string) => void, source: string): (line: string) => void {
  if (format !== 'json') return (line) => write(`${line}\n`);
  return (line) => write(`${JSON.stringify({ time: realNow().toISOString(), level: 'info', source, message: line })}\n`);
}

/**
 * Starts delivering the outbox (of the SQLite data directory, or of the PostgreSQL database that
 * every instance shares: each delivery is leased to one of them); each attempt is logged as one
 * line on `log`.
 */
export function startWebhookSender(store: WebhookSenderStore, retryDelaysMs: number[] | undefined, log: (line: string) => void): Sender {
  const sender = createSender({ store, retryDelaysMs, log });
  sender.start();
  return sender;
}
