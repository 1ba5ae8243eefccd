// Servers for the throughput benchmark, started as child processes by run.js:
//   node bench/servers.js bare      a bare node:http JSON server (the baseline)
//   node bench/servers.js confctl   the confctl server on a temporary data set of 100,000 users in
//                                   8 departments (host localhost), beside a tenant of 50 users in 3
//                                   departments (host small.test, key smallKeyId/smallSecret)
// Each prints one JSON line {port, keyId, secret, ...} once it listens.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const kind = process.argv[2];
const body = JSON.stringify({ message: 'Success.', data: { id: 1, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', timezone: 'Europe/London', role: 'Admin', status: 1, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', name: 'Ada Lovelace', deleted_at: null } });

async function confctl() {
  const { openStore, seedBulk } = await import('../dist/store/index.js');
  const { initFirstTenant } = await import('../dist/local/init.js');
  const { createServer } = await import('../dist/server/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'confctl-bench-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const store = openStore(join(dir, 'confctl.db'));
  const { tenant, key } = initFirstTenant(store);
  for (const n of ['Engineering', 'Sales', 'Support', 'Finance', 'Legal', 'Marketing', 'Research', 'Operations']) store.departments.create(tenant.id, n);
  seedBulk(store, tenant.id, { users: 100_000, customers: 1_000 });
  const small = store.tenants.create('small.test');
  for (const n of ['Engineering', 'Sales', 'Support']) store.departments.create(small.id, n);
  seedBulk(store, small.id, { users: 50, customers: 50 });
  const smallKey = store.keys.create({ tenant_id: small.id, name: 'bench', permissions: ['*'] });
  store.optimize();
  const { server } = createServer({ store, signingSecret: 'x'.repeat(64), mediaDir: dir, rateLimit: null, log: 'off' });
  return { server, keyId: key.id, secret: key.secret, smallKeyId: smallKey.record.id, smallSecret: smallKey.secret };
}

const { server, keyId = null, secret = null, smallKeyId = null, smallSecret = null } =
  kind === 'bare'
    ? { server: http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(body)) }
    : await confctl();
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port, keyId, secret, smallKeyId, smallSecret })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
