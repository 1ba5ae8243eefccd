import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createReceiver, MAX_BODY_BYTES } from '../../src/cli/commands/webhooks/receiver.js';
import type { Received } from '../../src/cli/commands/webhooks/print.js';

/** The receiver on a real socket with a frozen clock. */
const NOW = new Date('2026-11-23T20:30:00.000Z');
const SECRET = 'whsec_receiver';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function receiver(maxAgeSeconds = 300): Promise<{ url: string; accepted: Received[]; problems: string[] }> {
  const accepted: Received[] = [];
  const problems: string[] = [];
  server = createServer(createReceiver({ secret: SECRET, maxAgeSeconds, now: () => NOW, accepted: (r) => accepted.push(r), problem: (l) => problems.push(l) }));
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, accepted, problems };
}

function signed(timestamp: string, body: string, secret = SECRET): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`evt_1.${timestamp}.${body}`).digest('hex');
  return { 'X-Webhook-Id': 'evt_1', 'X-Webhook-Timestamp': timestamp, 'X-Webhook-Signature': signature };
}

describe('the listen receiver (frozen clock)', () => {
  it('accepts a delivery signed 299 s before now and refuses one 301 s before, saying so', async () => {
    const r = await receiver();
    const body = '{"event":"events.deleted","data":{"id":1,"calendar_id":2}}';
    const fresh = await fetch(r.url, { method: 'POST', headers: signed('2026-11-23T20:25:01.000Z', body), body });
    expect([fresh.status, await fresh.text()]).toEqual([200, 'OK\n']);
    const stale = await fetch(r.url, { method: 'POST', headers: signed('2026-11-23T20:24:59.000Z', body), body });
    expect([stale.status, await stale.text()]).toEqual([400, 'Rejected: timestamp 2026-11-23T20:24:59.000Z is 301 s old, more than the 300 s allowed.\n']);
    const ahead = await fetch(r.url, { method: 'POST', headers: signed('2026-11-23T20:40:00.000Z', body), body });
    expect(ahead.status).toBe(400);
    expect(r.accepted).toEqual([{ id: 'evt_1', timestamp: '2026-11-23T20:25:01.000Z', event: 'events.deleted', data: { id: 1, calendar_id: 2 }, status: 200 }]);
    expect(r.problems).toEqual([
      'rejected evt_1: timestamp 2026-11-23T20:24:59.000Z is 301 s old, more than the 300 s allowed',
      'rejected evt_1: timestamp 2026-11-23T20:40:00.000Z is 600 s in the future, more than the 300 s allowed',
    ]);
  });

  it('accepts an authentic body that is not an event object, printing it without type and data', async () => {
    const r = await receiver();
    const res = await fetch(r.url, { method: 'POST', headers: signed(NOW.toISOString(), 'not json'), body: 'not json' });
    expect(res.status).toBe(200);
    expect(r.accepted).toEqual([{ id: 'evt_1', timestamp: NOW.toISOString(), event: null, data: null, status: 200 }]);
  });

  it('answers 405 to another method and 413 over 1 MiB, never 500', async () => {
    const r = await receiver();
    const get = await fetch(r.url);
    expect([get.status, get.headers.get('allow'), await get.text()]).toEqual([405, 'POST', 'Webhook deliveries are POST requests.\n']);
    const big = 'x'.repeat(MAX_BODY_BYTES + 1);
    const res = await fetch(r.url, { method: 'POST', headers: signed(NOW.toISOString(), big), body: big });
    expect([res.status, await res.text()]).toEqual([413, 'Payload too large.\n']);
    expect(r.accepted).toEqual([]);
  });
});
