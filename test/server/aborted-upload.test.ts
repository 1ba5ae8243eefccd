import { afterEach, expect, it } from 'vitest';
import { closeGracefully } from '../../src/server/index.js';
import { listen } from './conferences-fixture.js';
import { API, setup, type Fixture } from './fixtures.js';
import { connect, logSink } from './socket-helpers.js';

let f: Fixture;
afterEach(async () => {
  await closeGracefully(f.app.server, 1000);
  f.store.close();
});

it('logs an upload the client aborts as 499, with no error and nothing stored', async () => {
  const log = logSink();
  f = setup({ log: 'json', logStream: log.stream });
  const port = Number(new URL(await listen(f.app.server)).port);
  const socket = await connect(port);
  const arrived = new Promise((resolve) => f.app.server.once('request', resolve));
  const auth = Object.entries(f.admin).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.write(`POST ${API}/customers HTTP/1.1\r\nHost: localhost\r\nX-Request-ID: gone-1\r\n${auth}Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"first_name":`);
  await arrived; // the server is now waiting for the rest of the body
  socket.destroy();
  const record = await log.waitFor((r) => r.request_id === 'gone-1');
  expect(record).toMatchObject({ method: 'POST', path: `${API}/customers`, status: 499 });
  expect(log.records().filter((r) => r.level === 'error')).toEqual([]);
  expect(log.text()).not.toContain('stack');
  expect(f.store.customers.list(f.tenant.id, { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).total).toBe(0);
});
