import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openStore } from '../../src/store/sqlite/index.js';

/**
 * `tenancyToken()`: another connection's commit is seen from the next run of the event loop on
 * (the pragma is read once per synchronous run), this store's own tenant and key writes at once.
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
