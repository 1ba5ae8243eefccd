import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { fold } from '../../../src/store/postgres/folded.js';
import { FOLDED_TEXTS as FOLDED } from '../../../src/store/postgres/folded-texts.js';
import { DERIVED_TABLES } from '../../../src/store/sqlite/tables.js';
import { connect, migratedDatabase } from './databases.js';

/** PostgreSQL's derived tables of folded texts, written by their lists' triggers. */
const FOLDED_TEXTS = FOLDED.map((t) => t.table);

const T0 = '2025-01-01T00:00:00.000Z';

/** The error code of a failed statement (23505 unique violation, 23514 check violation). */
async function failure(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('the schema beside SQLite', () => {
  it('has the same tables and columns, of the same kind and nullability, so rows copy verbatim', async () => {
    const sqlite = openDatabase(':memory:');
    const env = await migratedDatabase();
    try {
      // SQLite's plain tables derived from the rows (its trigram pending ids) have no PostgreSQL twin: PostgreSQL indexes the texts itself.
      const pending = new Set(DERIVED_TABLES);
      const all = sqlite.prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name").pluck().all() as string[];
      const tables = all.filter((name) => !pending.has(name));
      expect(tables.length).toBe(all.length - pending.size);
      const expected = tables.flatMap((table) =>
        (sqlite.prepare(`SELECT name, type, "notnull" OR pk AS required FROM pragma_table_info(?)`).all(table) as { name: string; type: string; required: number }[]).map(
          (c) => `${table}.${c.name} ${c.type === 'INTEGER' ? 'integer' : c.type === 'REAL' ? 'real' : 'text'}${c.required ? ' not null' : ''}`,
        ),
      );
      const { rows } = await env.client.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
        "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name NOT LIKE 'confctl\\_%'",
      );
      // PostgreSQL's tables of folded texts have no SQLite twin either: SQLite's FTS5 tables hold them.
      const actual = rows.filter((c) => !FOLDED_TEXTS.includes(c.table_name)).map(
        (c) => `${c.table_name}.${c.column_name} ${c.data_type === 'text' ? 'text' : c.data_type === 'double precision' ? 'real' : 'integer'}${c.is_nullable === 'NO' ? ' not null' : ''}`,
      );
      expect(actual.sort()).toEqual(expected.sort());
      // Text columns compare by code point, as SQLite's BINARY does, whatever the database's locale.
      const collations = await env.client.query(
        "SELECT DISTINCT collation_name FROM information_schema.columns WHERE table_schema = current_schema() AND data_type = 'text'",
      );
      expect(collations.rows).toEqual([{ collation_name: 'C' }]);
    } finally {
      sqlite.close();
      await env.close();
    }
  });
});

describe('ASCII case folding, in a Turkish database', () => {
  // tr-TR: the locale's lower('I') is a dotless 'ı', and it folds 'É' to 'é'; confctl must do neither.
  let env: Awaited<ReturnType<typeof migratedDatabase>>;
  let c: pg.Client;
  beforeAll(async () => {
    env = await migratedDatabase('tr-TR');
    c = env.client;
    await c.query(`INSERT INTO tenants (id, created_at) VALUES (1, '${T0}'), (2, '${T0}')`);
  });
  afterAll(() => env.close());

  const user = (tenant: number, email: string, deleted: string | null = null) =>
    c.query(`INSERT INTO users (tenant_id, first_name, last_name, email, created_at, updated_at, deleted_at) VALUES ($1, 'F', 'L', $2, '${T0}', '${T0}', $3)`, [
      tenant,
      email,
      deleted,
    ]);

  it('folds A-Z only, whatever the locale does', async () => {
    const { rows } = await c.query(`SELECT lower($1) AS locale, ${fold('$1')} AS folded, ${fold("'ABC'")} = ${fold("'abc'")} AS same`, ['IÉ']);
    expect(rows).toEqual([{ locale: 'ıé', folded: 'iÉ', same: true }]);
  });

  it('keeps emails unique per tenant ignoring ASCII case only, among live rows', async () => {
    await user(1, 'Ann@Example.com');
    expect(await failure(user(1, 'aNN@example.COM'))).toBe('23505');
    await user(1, 'IVAN@example.com');
    expect(await failure(user(1, 'ivan@example.com'))).toBe('23505');
    await user(1, 'É@example.com');
    await user(1, 'é@example.com');
    await user(2, 'ann@example.com');
    await user(1, 'ANN@example.com', T0);
    await c.query('UPDATE users SET deleted_at = $1 WHERE email = $2', [T0, 'Ann@Example.com']);
    await user(1, 'ann@example.com');
  });

  it('keeps attendees unique per conference ignoring ASCII case', async () => {
    await c.query(`INSERT INTO conference_accounts (id, tenant_id, owner_type, owner_id, name, created_at, updated_at) VALUES (1, 1, 'User', 1, 'a', '${T0}', '${T0}')`);
    await c.query(
      `INSERT INTO conferences (id, tenant_id, online_conference_account_id, public_id, title, is_public, created_at, updated_at) VALUES (1, 1, 1, 'p', 't', 1, '${T0}', '${T0}')`,
    );
    const attendee = (email: string) =>
      c.query(`INSERT INTO conference_attendees (online_conference_id, email, name, created_at, updated_at) VALUES (1, $1, 'n', '${T0}', '${T0}')`, [email]);
    await attendee('Bo@x.io');
    expect(await failure(attendee('bO@X.IO'))).toBe('23505');
    await attendee('Ébo@x.io');
    await attendee('ébo@x.io');
  });

  it('takes domains in lower case, as SQLite lower() has it (non-ASCII letters as they are)', async () => {
    const domain = (d: string) => c.query(`INSERT INTO tenant_domains (domain, tenant_id, is_primary, created_at) VALUES ($1, 1, 0, '${T0}')`, [d]);
    expect(await failure(domain('Example.com'))).toBe('23514');
    expect(await failure(domain('example.com'))).toBeUndefined();
    expect(await failure(domain('Éxample.com'))).toBeUndefined();
  });
});

describe('change counters', () => {
  let env: Awaited<ReturnType<typeof migratedDatabase>>;
  let c: pg.Client;
  let other: pg.Client;
  beforeAll(async () => {
    env = await migratedDatabase();
    c = env.client;
    other = await connect(env.db.url);
  });
  afterAll(async () => {
    await other.end();
    await env.close();
  });

  /** The counters as `client` sees them. */
  const counters = async (client: pg.Client = other) => {
    const { rows } = await client.query<{ scope: string; counter: string }>('SELECT scope, counter FROM confctl_changes ORDER BY scope');
    return Object.fromEntries(rows.map((r) => [r.scope, Number(r.counter)]));
  };
  /** How far `work` moves the counters that it moves, as another connection sees them. */
  const moved = async (work: () => Promise<unknown>) => {
    const before = await counters();
    await work();
    const after = await counters();
    return Object.fromEntries(Object.entries(after).filter(([scope, n]) => n !== before[scope]).map(([scope, n]) => [scope, n - before[scope]]));
  };

  it('start at zero: one for all data, one for tenancy, one for each data table, one for the fault rules and one for the manual clock', async () => {
    const all = await counters();
    expect(Object.keys(all)).toHaveLength(25);
    expect(Object.keys(all)).toEqual(expect.arrayContaining(['all', 'tenancy', 'users', 'customers', 'departments', 'conferences', 'meeting_links']));
    expect(Object.values(all).every((n) => n === 0)).toBe(true);
  });

  it("move tenancy only with tenants, their domains and access keys; all and the table's own with every data table", async () => {
    expect(await moved(() => c.query(`INSERT INTO tenants (id, created_at) VALUES (1, '${T0}'), (2, '${T0}')`))).toEqual({ all: 1, tenancy: 1, tenants: 1 });
    expect(await moved(() => c.query(`INSERT INTO tenant_domains VALUES ('a.example', 1, 1, '${T0}')`))).toEqual({ all: 1, tenancy: 1, tenant_domains: 1 });
    expect(await moved(() => c.query(`INSERT INTO access_keys VALUES ('k1', 1, 'n', 'h', '[]', NULL, NULL, '${T0}')`))).toEqual({ all: 1, tenancy: 1, access_keys: 1 });
    expect(await moved(() => c.query("UPDATE access_keys SET revoked_at = $1 WHERE id = 'k1'", [T0]))).toEqual({ all: 1, tenancy: 1, access_keys: 1 });
    expect(await moved(() => c.query("DELETE FROM tenant_domains WHERE domain = 'a.example'"))).toEqual({ all: 1, tenancy: 1, tenant_domains: 1 });
    expect(await moved(() => c.query(`INSERT INTO roles (tenant_id, name, created_at) VALUES (1, 'Admin', '${T0}')`))).toEqual({ all: 1, roles: 1 });
    const user = `INSERT INTO users (tenant_id, first_name, last_name, email, created_at, updated_at) VALUES (1, 'F', 'L', 'u@x', '${T0}', '${T0}')`;
    expect(await moved(() => c.query(user))).toEqual({ all: 1, users: 1 });
    expect(await moved(() => c.query("UPDATE users SET first_name = 'G'"))).toEqual({ all: 1, users: 1 });
    expect(await moved(() => c.query('DELETE FROM users'))).toEqual({ all: 1, users: 1 });
  });

  it('move once a statement, however many rows it writes, and not for a statement that wrote none', async () => {
    const many = `INSERT INTO departments (tenant_id, name, created_at, updated_at) SELECT 1, 'd' || g, '${T0}', '${T0}' FROM generate_series(1, 50) g`;
    expect(await moved(() => c.query(many))).toEqual({ all: 1, departments: 1 });
    expect(await moved(() => c.query("UPDATE departments SET name = 'x' WHERE name = 'nothing'"))).toEqual({});
    expect(await moved(() => c.query('DELETE FROM tenants WHERE id = 999'))).toEqual({});
    expect(await moved(() => c.query("INSERT INTO roles (tenant_id, name, created_at) SELECT 1, 'x', 'x' WHERE false"))).toEqual({});
  });

  it('move when the writing transaction commits, and not at all when it rolls back', async () => {
    const department = `INSERT INTO departments (tenant_id, name, created_at, updated_at) VALUES (1, 'Sales', '${T0}', '${T0}')`;
    const before = await counters();
    await c.query('BEGIN');
    await c.query(department);
    expect(await counters(c)).toEqual({ ...before, all: before.all + 1, departments: before.departments + 1 });
    expect(await counters()).toEqual(before);
    await c.query('ROLLBACK');
    expect(await counters(c)).toEqual(before);

    await c.query('BEGIN');
    await c.query('SAVEPOINT s');
    await c.query(department);
    await c.query('ROLLBACK TO SAVEPOINT s');
    await c.query('COMMIT');
    expect(await counters()).toEqual(before);

    await c.query('BEGIN');
    await c.query(department);
    await c.query(department);
    expect(await counters()).toEqual(before);
    await c.query('COMMIT');
    expect(await counters()).toEqual({ ...before, all: before.all + 2, departments: before.departments + 2 });
  });

  it('count every commit of concurrent writers: the second waits for the first', async () => {
    const department = `INSERT INTO departments (tenant_id, name, created_at, updated_at) VALUES (1, 'C', '${T0}', '${T0}')`;
    const third = await connect(env.db.url);
    try {
      const before = await counters();
      await c.query('BEGIN');
      await c.query(department);
      await third.query('BEGIN');
      let done = false;
      const second = third.query(department).then(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(done).toBe(false);
      await c.query('COMMIT');
      await second;
      await third.query('COMMIT');
      expect(await counters()).toEqual({ ...before, all: before.all + 2, departments: before.departments + 2 });
    } finally {
      await third.end();
    }
  });

  it('move with a TRUNCATE, and never with the settings or the rate windows', async () => {
    expect(await moved(() => c.query('TRUNCATE webhook_attempts'))).toEqual({ all: 1, webhook_attempts: 1 });
    expect(await moved(() => c.query("INSERT INTO confctl_settings VALUES ('secret', 's')"))).toEqual({});
    expect(await moved(() => c.query("INSERT INTO confctl_rate_windows VALUES ('ip:1', 1, 1)"))).toEqual({});
    expect(await moved(() => c.query("UPDATE confctl_rate_windows SET count = count + 1 WHERE bucket = 'ip:1'"))).toEqual({});
  });

  it('are moved by every data table, and by no confctl_ table nor the list counters or the folded texts (derived, written with their tables)', async () => {
    const { rows } = await c.query<{ table: string; triggers: number }>(`
SELECT c.relname AS table, count(t.oid)::int AS triggers
FROM pg_class c LEFT JOIN pg_trigger t ON t.tgrelid = c.oid AND NOT t.tgisinternal AND t.tgfoid = 'confctl_bump_changes'::regproc
WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
GROUP BY c.relname`);
    expect(rows.length).toBe(31);
    // The fault rules' counter moves when rules are added or removed, not when serve counts their matches (an UPDATE).
    const expected = (table: string) => (table.startsWith('confctl_') || table === 'list_counts' || FOLDED_TEXTS.includes(table) ? 0 : table === 'fault_rules' ? 3 : 4);
    for (const { table, triggers } of rows) expect({ table, triggers }).toEqual({ table, triggers: expected(table) });
  });
});
