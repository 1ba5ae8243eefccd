import { createHmac } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FROZEN, fake } from './helpers.js';

/** `webhooks listen` run in-process (fake terminal, frozen clock), stopped by emitting the signal. */

const SECRET = 'whsec_in_process';

function post(url: string, timestamp: string, body: string): Promise<{ status: number; connection?: string; text: string }> {
  const signature = createHmac('sha256', SECRET).update(`evt_9.${timestamp}.${body}`).digest('hex');
  return new Promise((done, fail) => {
    const req = request(url, { method: 'POST', headers: { 'X-Webhook-Id': 'evt_9', 'X-Webhook-Timestamp': timestamp, 'X-Webhook-Signature': signature } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => done({ status: res.statusCode!, connection: res.headers.connection, text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

async function started(f: ReturnType<typeof fake>): Promise<string> {
  for (;;) {
    const m = /Listening on (\S+)/.exec(f.stderr());
    if (m) return m[1];
    await new Promise((r) => setImmediate(r));
  }
}

describe('webhooks listen in-process', () => {
  it('on a terminal prints a heading and one row per delivery, judging age by the injected clock', async () => {
    const f = fake({ tty: true });
    const exit = f.run(['webhooks', 'listen', '--port', '0', '--secret', SECRET]);
    const url = await started(f);
    const body = '{"event":"events.created","data":{"id":42,"calendar_id":7}}';
    // Fresh by the frozen clock, though long past by the real one.
    expect((await post(url, new Date(FROZEN.getTime() - 60_000).toISOString(), body)).status).toBe(200);
    expect((await post(url, new Date(FROZEN.getTime() - 360_000).toISOString(), body)).status).toBe(400);
    process.emit('SIGTERM');
    expect(await exit).toBe(0);
    const [heading, row, ...rest] = f.stdout().split('\n');
    expect(heading).toMatch(/^TIME +STATUS +EVENT +ID +DATA$/);
    const signed = new Date(FROZEN.getTime() - 60_000);
    const time = [signed.getHours(), signed.getMinutes(), signed.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
    expect(row).toMatch(new RegExp(`^${time} +200 +events\\.created +evt_9 +\\{"id":42,"calendar_id"…$`));
    expect(row).toHaveLength(100); // the fake terminal's width: the data is cut to fit
    expect(rest).toEqual(['']);
  });

  it('a delivery in flight when it stops is answered, with Connection: close, then it exits 0', async () => {
    let release: () => void = () => {};
    let arrived: () => void = () => {};
    const reached = new Promise<void>((r) => (arrived = r));
    const slow = createServer((_req, res) => {
      arrived();
      release = () => res.writeHead(201).end('late');
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const f = fake();
      const exit = f.run(['webhooks', 'listen', '--port', '0', '--secret', SECRET, '--forward-to', `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`]);
      const url = await started(f);
      const answer = post(url, FROZEN.toISOString(), '{}');
      await reached;
      process.emit('SIGINT');
      release();
      expect(await answer).toEqual({ status: 201, connection: 'close', text: 'late' });
      expect(await exit).toBe(0);
      expect(f.stderr()).toContain('Stopped.');
      expect(JSON.parse(f.stdout())).toEqual({ id: 'evt_9', timestamp: FROZEN.toISOString(), event: null, data: null, status: 201 });
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });
});
