import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, stop } from './conferences-fixture.js';
import { type Fixture, setup } from './fixtures.js';
import { connect, untilClosed } from './socket-helpers.js';

let f: Fixture;
afterEach(async () => {
  if (f?.app.server.listening) await stop(f.app.server);
  f?.store.close();
});

/** Sends `head` on a raw connection; answers what came back before the server closed it. */
async function raw(head: string) {
  await listen(f.app.server);
  const socket = await connect((f.app.server.address() as AddressInfo).port);
  const done = untilClosed(socket);
  socket.write(head);
  return done;
}

describe('CONNECT', () => {
  it('is answered like another method the API does not serve: with a body, then the connection closes; and it is logged', async () => {
    const log = new PassThrough();
    let logged = '';
    log.on('data', (c: Buffer) => (logged += c.toString()));
    f = setup({ log: 'json', logStream: log });
    const r = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    const other = await f.app.request({ method: 'PROPFIND', path: 'example.com:443', headers: { host: 'example.com:443' } });
    expect(r.status).toBe(other.status);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.body).toBe(other.body);
    expect(r.body.length).toBeGreaterThan(0);
    expect(r.headers['x-process-id']).toBeTruthy();
    const lines = logged.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toContainEqual(expect.objectContaining({ method: 'CONNECT', path: 'example.com:443', status: r.status }));
  });
});
