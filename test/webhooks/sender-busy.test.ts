import { afterEach, describe, expect, it } from 'vitest';
import { createSender } from '../../src/webhooks/sender.js';
import { serveLog } from '../../src/cli/commands/serve/webhooks.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';

let store: SqliteStore;
afterEach(() => store?.close());

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** Runs one poll of a sender whose store fails `changeToken` with `err`; answers the lines logged. */
async function onePoll(err: Error): Promise<string[]> {
  store = openStore(':memory:');
  const lines: string[] = [];
  const failing = Object.create(store) as SqliteStore;
  failing.changeToken = () => {
    throw err;
  };
  const sender = createSender({ store: failing, log: (l) => void lines.push(l), pollMs: 60_000 });
  sender.start();
  await sender.stop();
  return lines;
}

describe('a busy database on a poll', () => {
  it('is retried quietly at the next poll: no log line', async () => {
    expect(await onePoll(busy())).toEqual([]);
  });

  it('another failure is still logged', async () => {
    expect(await onePoll(new Error('disk I/O error'))).toEqual(['webhook sender: disk I/O error']);
  });
});

describe('the sender log of serve', () => {
  it('--log json: each line is one JSON object (time, level, source, message)', () => {
    const written: string[] = [];
    serveLog('json', (s) => void written.push(s), 'webhooks')('webhook delivery 1 (e) to http://x: 200; delivered');
    expect(written).toHaveLength(1);
    expect(written[0].endsWith('\n')).toBe(true);
    const record = JSON.parse(written[0]);
    expect(record).toEqual({ time: expect.any(String), level: 'info', source: 'webhooks', message: 'webhook delivery 1 (e) to http://x: 200; delivered' });
    expect(new Date(record.time).toISOString()).toBe(record.time);
  });

  it('pretty and off: the line as it is', () => {
    const written: string[] = [];
    serveLog('pretty', (s) => void written.push(s), 'webhooks')('a line');
    serveLog('off', (s) => void written.push(s), 'serve')('b line');
    expect(written).toEqual(['a line\n', 'b line\n']);
  });
});
