import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openStore } from '../../src/store/sqlite/index.js';

/**
 * `tenancyToken()`: another connection's commit is seen from the next run of the event loop on
 * (the pragma is read once per synchronous run), this store's own tenant and key writes at once.
 * The manual clock's and the fault rules' tokens are narrowed from it and share that read.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function twoConnections() {
  const dir = mkdtempSync(join(tmpdir(), 'confctl-token-'));
  dirs.push(dir);
  const server = openStore(join(dir, 'db.sqlite'));
  const admin = openStore(join(dir, 'db.sqlite'));
  return { server, admin, close: () => [server, admin].forEach((s) => s.close()) };
}

it("moves with another connection's commit once the synchronous run that read it has ended", async () => {
  const { server, admin, close } = twoConnections();
  const before = server.tenancyToken();
  admin.tenants.create('other.test');
  expect(server.tenancyToken()).toBe(before);
  await Promise.resolve();
  const after = server.tenancyToken();
  expect(after).not.toBe(before);
  await Promise.resolve();
  expect(server.tenancyToken()).toBe(after);
  close();
});

it("moves at once with this store's own key and tenant writes", () => {
  const { server, close } = twoConnections();
  const tenant = server.tenants.create('a.test');
  const created = server.tenancyToken();
  const { record } = server.keys.create({ tenant_id: tenant.id, name: 'k', permissions: ['*'] });
  const keyed = server.tenancyToken();
  expect(keyed).not.toBe(created);
  server.keys.revoke(record.id);
  expect(server.tenancyToken()).not.toBe(keyed);
  close();
});

it("the manual clock's and the fault rules' tokens share its read of the pragma: one read per synchronous run", async () => {
  const { server, admin, close } = twoConnections();
  await Promise.resolve();
  server.tenancyToken();
  admin.clock.put({ at_ms: 1_000, manual: true });
  admin.faults.add({ method: '*', path: '/users', status: 503, rate: 1, latency_ms: null, times: null, tenant_id: null, seed: 1 });
  // Read in the run that read the tenancy token: the pragma as it stood then, before the other connection's commits.
  const clock = server.clock.token();
  const faults = server.faults.token();
  await Promise.resolve();
  expect(server.clock.token()).not.toBe(clock);
  expect(server.faults.token()).not.toBe(faults);
  close();
});
