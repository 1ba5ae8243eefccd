import { afterEach, describe, expect, it } from 'vitest';
import { connect, refused, untilClosed } from '../server/socket-helpers.js';
import { BACKENDS, Sandbox } from './harness.js';

let sandbox: Sandbox;
afterEach(async () => sandbox.dispose());

// Each serve here has a process of its own: these tests are of how that process takes signals. In a
// CLI runner the second SIGTERM on PostgreSQL ended serve as a graceful stop twice (a whole e2e run
// and a clean-clone CI run, 2026-11-28), for a reason not found yet.
describe.each(BACKENDS)('serve on %s', (backend) => {
it('SIGTERM drains: no new connections, the request in flight completes and is stored, exit 0', async () => {
  sandbox = new Sandbox(backend);
  const { baseUrl, child, output } = await sandbox.serve(['--no-profile'], { ownProcess: true });
  const keyId = /key id: (\S+)/.exec(output())![1];
  const secret = /secret: (\S+)/.exec(output())![1];
  const port = Number(new URL(baseUrl).port);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));

  const body = JSON.stringify({ first_name: 'Dana', middle_name: null, last_name: 'Drain', email: 'dana.drain@example.com', contact_number: null, address: null });
  const socket = await connect(port);
  const continued = new Promise<void>((done) => socket.once('data', (chunk) => (String(chunk).startsWith('HTTP/1.1 100') ? done() : undefined)));
  // Expect: 100-continue makes the server say when it has the request's head: from then on the
  // request is in flight, not an idle connection that a drain may close.
  socket.write(
    `POST /api/public/v2.0/customers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Access-Key-Id: ${keyId}\r\nX-Access-Key-Secret: ${secret}\r\nExpect: 100-continue\r\n\r\n`,
  );
  await continued;
  const answer = untilClosed(socket);

  child.kill('SIGTERM');
  await refused(port);
  socket.write(body);
  const exchange = await answer;
  expect(exchange.status).toBe(200);
  expect(exchange.headers.connection).toBe('close');
  expect(JSON.parse(exchange.body).data.email).toBe('dana.drain@example.com');
  expect(await exited).toBe(0);
  expect(output()).toContain('Stopped.');

  const store = await sandbox.openStore();
  try {
    const tenant = (await store.tenants.list())[0];
    expect((await store.customers.findByEmail(tenant.id, 'dana.drain@example.com'))?.last_name).toBe('Drain');
  } finally {
    await store.close();
  }
});

it('a second SIGTERM during a drain ends serve at once', async () => {
  sandbox = new Sandbox(backend);
  const { baseUrl, child } = await sandbox.serve(['--no-profile'], { ownProcess: true });
  const port = Number(new URL(baseUrl).port);
  const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
  const socket = await connect(port);
  const continued = new Promise<void>((done) => socket.once('data', () => done()));
  // A request whose body never comes keeps the first drain waiting.
  socket.write('POST /api/public/v2.0/customers HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n');
  await continued;
  child.kill('SIGTERM');
  await refused(port);
  child.kill('SIGTERM');
  expect(await exited).toBe('SIGTERM');
  socket.destroy();
});
});
