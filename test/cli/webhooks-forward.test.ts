import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { forward } from '../../src/cli/commands/webhooks/forward.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  server = undefined;
});

async function silentTarget(): Promise<URL> {
  server = createServer(() => {
    // Never answers: the forward's own timeout must end the wait.
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
}

describe('forward', () => {
  it('answers 504 with the reason when the target does not answer within the timeout', async () => {
    const target = await silentTarget();
    const result = await forward(target, 'POST', ['X-Webhook-Id', 'a'], Buffer.from('{}'), 50);
    expect(result).toMatchObject({ status: 504, error: `forward to ${target.href} timed out after 0.05 s` });
    expect(result.body.toString()).toBe(`forward to ${target.href} timed out after 0.05 s\n`);
    expect(result.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('relays the status, headers and body of an answer', async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(418, { 'Content-Type': 'application/json', 'X-Seen': String(req.headers['x-webhook-id']) }).end('{"no":1}'));
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const result = await forward(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`), 'POST', ['X-Webhook-Id', 'evt'], Buffer.from('{}'));
    expect(result.status).toBe(418);
    expect(result.headers['x-seen']).toBe('evt');
    expect(result.body.toString()).toBe('{"no":1}');
    expect(result.error).toBeUndefined();
  });
});
