import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openShared } from '../../../src/cli/commands/serve/postgres.js';
import type { ListQuery } from '../../../src/contract/index.js';
import { openPostgresStore } from '../../../src/store/postgres/index.js';
import { TRIGRAM_INDEXES, TRIGRAM_MISSING } from '../../../src/store/postgres/trigram.js';
import { createTestDatabase, type TestDatabase } from '../../pg/database.js';
import { fake } from '../../cli/helpers.js';
import { connect } from './databases.js';

/**
 * A database where confctl may not create pg_trgm (its user is not the database's owner and has
 * no CREATE on it, as on a managed PostgreSQL; a server without the contrib package refuses the
 * same way): `serve` says so on stderr, Contains lists still answer, through the other indexes;
 * once an administrator creates the extension, the next start adds the trigram indexes.
 */
describe('PostgreSQL without pg_trgm', () => {
  const role = `confctl_plain_${randomBytes(4).toString('hex')}`;
  let db: TestDatabase;
  let url: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'confctl-trgm-'));
  const asAdmin = async (sql: string) => {
    const c = await connect(db.url);
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  beforeAll(async () => {
    db = await createTestDatabase();
    await asAdmin(`CREATE ROLE ${role} LOGIN; GRANT CREATE ON SCHEMA public TO ${role}`);
    const u = new URL(db.url);
    u.username = role;
    url = u.href;
  });
  afterAll(async () => {
    await db.drop();
    const admin = await connect(inject('postgresUrl'));
    await admin.query(`DROP ROLE IF EXISTS ${role}`).finally(() => admin.end());
    rmSync(dataDir, { recursive: true, force: true });
  });

  const trigramIndexes = async () => {
    const c = await connect(db.url);
    try {
      return (await c.query("SELECT indexname FROM pg_indexes WHERE indexname LIKE '%\\_trgm' ORDER BY indexname")).rows.map((r) => r.indexname as string);
    } finally {
      await c.end();
    }
  };

  it('serve warns with the documented message and answers Contains lists; the next start after CREATE EXTENSION adds the indexes', async () => {
    const f = fake({ env: { CONFCTL_DATA: dataDir } });
    const shared = await openShared(url, { data: dataDir, profile: null, demo: false }, f.ctx);
    try {
      expect(f.stderr()).toContain(`warning: ${TRIGRAM_MISSING}\n`);
      expect(TRIGRAM_MISSING).toContain('CREATE EXTENSION pg_trgm');
      expect(shared.store.notices).toEqual([TRIGRAM_MISSING]);
      const [tenant] = await shared.store.tenants.list();
      await shared.store.customers.insert(tenant.id, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@x.example', address: { city: 'London', country: 'UK' } });
      await shared.store.customers.insert(tenant.id, { first_name: 'Alan', last_name: 'Turing', email: 'alan@x.example' });
      const contains = (value: string, attribute = 'last_name'): ListQuery => ({
        page_size: 10,
        page_number: 1,
        with_trashed: false,
        order_by: 'id',
        order_direction: 'asc',
        filter: { attribute, type: 'text', operator: 'Contains', value },
      });
      expect((await shared.store.customers.list(tenant.id, contains('LOVE'))).rows.map((c) => c.email)).toEqual(['ada@x.example']);
      expect((await shared.store.customers.list(tenant.id, contains('u'))).total).toBe(1);
      // The customers' address through their texts' table, which needs no pg_trgm (customer-texts.ts).
      expect((await shared.store.customers.list(tenant.id, contains('LONDON, u', 'address'))).rows.map((c) => c.email)).toEqual(['ada@x.example']);
      expect((await shared.store.customers.list(tenant.id, contains('don, uk', 'city_country'))).total).toBe(1);
    } finally {
      await shared.store.close();
    }
    expect(await trigramIndexes()).toEqual([]);

    await asAdmin('CREATE EXTENSION pg_trgm');
    const store = await openPostgresStore(url);
    try {
      expect(store.notices).toEqual([]);
      expect(await trigramIndexes()).toEqual(TRIGRAM_INDEXES.map((i) => i.name).sort());
    } finally {
      await store.close();
    }
  });
});
