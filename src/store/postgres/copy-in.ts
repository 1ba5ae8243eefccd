/**
 * `admin copy`'s write side: tables of rows (store/tables.ts) into a PostgreSQL database by
 * `COPY … FROM STDIN` (binary), all in ONE transaction with the identity sequences reset past the
 * copied ids and the instance's signing secret stored as the database's. The tables are emptied in
 * that transaction first (so the rows are written frozen) and their indexes, foreign keys and
 * triggers set aside until the rows are in (see `withDeferredIndexes`). Each table's indexes are
 * built once it is filled, while this process reads and encodes the next table's rows ahead
 * (`TableCopy.readAhead`): the users' index builds leave part of the machine idle, and the
 * customers' rows then stream as fast as PostgreSQL takes them. The list counters are counted
 * again after (the copied counters of the source are recounted, not trusted), as the tables of
 * folded texts are written again (folded-texts.ts). The commit waits for the WAL flush whatever
 * the server's `synchronous_commit`, and is followed by `VACUUM (ANALYZE)`: planner statistics
 * and the visibility map that index-only scans need.
 */
import type pg from 'pg';
import type { TableCopyOptions, TableCount } from '../tables.js';
import { bumpChanges, prepareCopy, quote, type TableCopy, withDeferredIndexes } from './bulk-load.js';
import { migrate } from './migrate.js';
import { createPool } from './pool.js';
import { resetSequences } from './schema.js';
import { SIGNING_SECRET } from './shared.js';
import { fillFoldedTexts, FOLDED_TEXTS } from './folded-texts.js';
import { ensureTrigramIndexes } from './trigram.js';
import { recountListCounts } from './list-counts.js';
import { lockName } from './locks.js';

/** The tables besides the data tables that `replace` empties: shared settings and rate-limit windows. */
const SHARED_TABLES = ['confctl_settings', 'confctl_rate_windows'] as const;

async function withClient<T>(url: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const pool = createPool(url, 1);
  try {
    const client = await pool.connect();
    try {
      return await work(client);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

/** Tenants in the database; 0 when it has no confctl schema yet. */
async function tenantCount(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ present: boolean }>("SELECT to_regclass('tenants') IS NOT NULL AS present");
  if (!rows[0].present) return 0;
  return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM tenants')).rows[0].n;
}

/** The tenants of the database at `url`, changing nothing (0 without confctl's schema). */
export const databaseTenantCount = (url: string): Promise<number> => withClient(url, tenantCount);

/** The columns of each table of the database's current schema. */
async function tableColumns(client: pg.ClientBase): Promise<Map<string, Set<string>>> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(
    'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()',
  );
  const tables = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!tables.has(r.table_name)) tables.set(r.table_name, new Set());
    tables.get(r.table_name)!.add(r.column_name);
  }
  return tables;
}

/** Copies `options.tables` into the database at `url` (see the module's comment); answers the rows of each. */
export async function copyTablesToDatabase(url: string, options: TableCopyOptions): Promise<TableCount[]> {
  const names = options.tables.map((t) => t.name);
  return withClient(url, async (client) => {
    await migrate(client);
    await ensureTrigramIndexes(client);
    options.admit(await tenantCount(client));
    options.checkColumns(await tableColumns(client));
    options.beforeWrite();
    await client.query('BEGIN');
    let counts: TableCount[];
    try {
      await client.query('SET LOCAL synchronous_commit = on');
      await lockName(client, options.lock);
      options.admit(await tenantCount(client));
      // Without a tenant the tables hold nothing of confctl's; emptied here, the rows copy frozen.
      const emptied = [...names, ...(options.replace ? SHARED_TABLES : [])];
      await client.query(`TRUNCATE ${emptied.map(quote).join(', ')} RESTART IDENTITY CASCADE`);
      // The triggers set aside would only recompute users' JSON text, which the source stores by the same rules.
      counts = await withDeferredIndexes(client, names, async (restore) => {
        const copied: TableCount[] = [];
        const prepare = (table: (typeof options.tables)[number]) =>
          prepareCopy(client, table.name, table.columns, options.rows(table), { freeze: true, rowsPerChunk: options.rowsPerChunk });
        let copy: TableCopy | undefined;
        for (const [i, table] of options.tables.entries()) {
          copy ??= await prepare(table);
          copied.push({ table: table.name, rows: await copy.stream() });
          // Each table's indexes are built once it is filled, while the next table's rows are read ahead.
          const next = options.tables[i + 1];
          copy = next && (await prepare(next));
          await (copy ? copy.readAhead(restore(table.name)) : restore(table.name));
        }
        return copied;
      });
      await bumpChanges(client);
      await recountListCounts(client);
      for (const texts of FOLDED_TEXTS) await fillFoldedTexts(client, texts);
      await resetSequences(client);
      await client.query(
        'INSERT INTO confctl_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
        [SIGNING_SECRET, options.signingSecret],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    // Planner statistics and the visibility map for the tables just filled (autovacuum would take
    // its time): without statistics a list page of a 20,000-user tenant took 10 ms instead of
    // 0.06 ms; without the visibility map no count or deep page is an index-only scan.
    await client.query(`VACUUM (ANALYZE) ${[...names, ...FOLDED_TEXTS.map((t) => t.table)].map(quote).join(', ')}`);
    return counts;
  });
}
