import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../../src/store/postgres/index.js';
import { UniqueViolation } from '../../../src/store/util.js';
import { migratedDatabase } from './databases.js';

describe('PostgreSQL tenants', () => {
  it('a tenant with a domain another tenant holds is a UniqueViolation of domain, and nothing of it is stored', async () => {
    const env = await migratedDatabase();
    const store = await openPostgresStore(env.db.url);
    try {
      const first = await store.tenants.create('a.test');
      const err: unknown = await Promise.resolve(store.tenants.create('b.test', ['A.test'])).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UniqueViolation);
      expect((err as UniqueViolation).field).toBe('domain');
      expect((await env.client.query('SELECT id::int AS id FROM tenants')).rows).toEqual([{ id: first.id }]);
      expect((await env.client.query('SELECT domain FROM tenant_domains')).rows).toEqual([{ domain: 'a.test' }]);
    } finally {
      await store.close();
      await env.close();
    }
  });
});
