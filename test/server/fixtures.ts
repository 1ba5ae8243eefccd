import { ensureDefaultRoles } from '../../src/admin/seed/index.js';
import type { TenantRecord } from '../../src/store/types.js';
import { createServer, type InjectedResponse, type ServerOptions } from '../../src/server/index.js';
import type { HandlerMap } from '../../src/server/index.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

export const API = '/api/public/v2.0';

export type KeyHeaders = { 'x-access-key-id': string; 'x-access-key-secret': string };

/**
 * A server over a fresh in-memory store holding two tenants: `localhost` (aliases `127.0.0.1`,
 * `::1`, with the default roles) and `other.test`. Rate limits are off unless asked for.
 */
export function setup(options: Partial<ServerOptions> = {}, handlers?: HandlerMap) {
  const store: SqliteStore = openStore(':memory:');
  const tenant: TenantRecord = store.tenants.create('localhost', ['127.0.0.1', '::1']);
  const other: TenantRecord = store.tenants.create('other.test');
  atOnce(ensureDefaultRoles(store, tenant.id));
  atOnce(ensureDefaultRoles(store, other.id));
  const app = createServer({ store, signingSecret: 'test-secret', mediaDir: '/nonexistent', rateLimit: null, ...options }, handlers);

  /** Creates a key and returns its two headers. */
  const key = (permissions: readonly string[] = ['*'], tenantId = tenant.id, expires_at?: string | null): KeyHeaders => {
    const { record, secret } = store.keys.create({ tenant_id: tenantId, name: 'test', permissions, expires_at });
    return { 'x-access-key-id': record.id, 'x-access-key-secret': secret };
  };
  const admin = key();

  /** One in-process request with the all-permissions key unless `headers` gives others. */
  const call = (
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; key?: KeyHeaders | null } = {},
  ): Promise<InjectedResponse> => {
    const auth = init.key === null ? {} : (init.key ?? admin);
    return app.request({ method, path: API + path, body: init.body, headers: { ...auth, ...init.headers } });
  };

  return { store, tenant, other, app, key, admin, call };
}

export type Fixture = ReturnType<typeof setup>;

/** Work hours with every day empty. */
export const NO_HOURS = { sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
