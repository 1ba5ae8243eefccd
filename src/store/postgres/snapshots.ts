/**
 * PostgreSQL snapshots: a schema each, `confctl_snapshot_NAME`, in the instance's own database, so
 * that every instance sharing the database sees the same snapshots and a restore. A save copies
 * every snapshot table into it in one REPEATABLE READ transaction (one consistent view), with the
 * snapshot's facts and its recording files. A restore, in one transaction, locks the snapshot
 * tables against writes (EXCLUSIVE: reads go on, on the old rows, until it commits), deletes their
 * rows and copies the snapshot's back, and sets the id sequences past the restored ids. The
 * statement triggers move the change counters of every table it wrote, so every instance's
 * caches drop what they hold on their next read.
 */
import type pg from 'pg';
import { checkSnapshotName, SNAPSHOT_TABLES, SnapshotError, type SnapshotFile, type SnapshotInfo, type SnapshotStore } from '../snapshots.js';
import { PG_SCHEMA_VERSION } from './migrate.js';
import { all, inTransaction, one, type Queryable } from './pool.js';
import { resetSequences } from './schema.js';
import { lockName } from './locks.js';

const PREFIX = 'confctl_snapshot_';
/** Saves, restores and deletes take turns across instances. */
const SNAPSHOT_LOCK = 'confctl:snapshots';

const schemaOf = (name: string) => `"${PREFIX}${checkSnapshotName(name)}"`;

async function exists(db: Queryable, name: string): Promise<boolean> {
  return (await one(db, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [PREFIX + name])) !== undefined;
}

async function infoOf(db: Queryable, name: string): Promise<SnapshotInfo> {
  const schema = schemaOf(name);
  const facts = new Map((await all<{ key: string; value: string }>(db, `SELECT key, value FROM ${schema}.confctl_snapshot`)).map((r) => [r.key, r.value]));
  const files = await one<{ n: number }>(db, `SELECT count(*)::int AS n FROM ${schema}.confctl_snapshot_files`);
  return { name, created_at: facts.get('created_at') ?? '', schema_version: Number(facts.get('schema_version')), media_files: files?.n ?? 0 };
}

/**
 * Each snapshot table's columns in order, quoted, from the catalog in one query: the same from
 * `information_schema.columns` cost about 6 ms of PostgreSQL's planning a table, 20 tables a save.
 */
async function liveColumns(db: Queryable): Promise<Map<string, string>> {
  const rows = await all<{ table: string; columns: string }>(
    db,
    `SELECT c.relname AS table, string_agg('"' || a.attname || '"', ', ' ORDER BY a.attnum) AS columns
     FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname = ANY($1)
     GROUP BY c.relname`,
    [SNAPSHOT_TABLES],
  );
  return new Map(rows.map((r) => [r.table, r.columns]));
}

export function pgSnapshots(pool: pg.Pool): SnapshotStore {
  return {
    save: (name, files, createdAt, replace) =>
      inTransaction(pool, async (tx) => {
        const schema = schemaOf(name);
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        await lockName(tx, SNAPSHOT_LOCK);
        if (await exists(tx, name)) {
          if (!replace) throw new SnapshotError('exists', `A snapshot named '${name}' exists already.`);
          await tx.query(`DROP SCHEMA ${schema} CASCADE`);
        }
        await tx.query(`CREATE SCHEMA ${schema}`);
        const columns = await liveColumns(tx);
        for (const table of SNAPSHOT_TABLES) await tx.query(`CREATE TABLE ${schema}.${table} AS SELECT ${columns.get(table)} FROM ${table}`);
        await tx.query(`CREATE TABLE ${schema}.confctl_snapshot (key text PRIMARY KEY, value text NOT NULL)`);
        await tx.query(`INSERT INTO ${schema}.confctl_snapshot (key, value) VALUES ('created_at', $1), ('schema_version', $2)`, [createdAt, String(PG_SCHEMA_VERSION)]);
        await tx.query(`CREATE TABLE ${schema}.confctl_snapshot_files (path text PRIMARY KEY, content bytea NOT NULL)`);
        for (const f of files) await tx.query(`INSERT INTO ${schema}.confctl_snapshot_files (path, content) VALUES ($1, $2)`, [f.path, f.content]);
        return { name, created_at: createdAt, schema_version: PG_SCHEMA_VERSION, media_files: files.length };
      }),

    restore: (name, checkFiles) =>
      inTransaction(pool, async (tx) => {
        const schema = schemaOf(name);
        await lockName(tx, SNAPSHOT_LOCK);
        if (!(await exists(tx, name))) throw new SnapshotError('not_found', `There is no snapshot named '${name}'.`);
        const info = await infoOf(tx, name);
        if (info.schema_version > PG_SCHEMA_VERSION) {
          throw new SnapshotError('newer_schema', `The snapshot '${name}' has schema version ${info.schema_version}, newer than this confctl's ${PG_SCHEMA_VERSION}: restore it with a newer confctl.`);
        }
        if (info.schema_version < PG_SCHEMA_VERSION) {
          throw new SnapshotError('older_schema', `The snapshot '${name}' has schema version ${info.schema_version}, older than this database's ${PG_SCHEMA_VERSION}: save it again.`);
        }
        const files = await all<SnapshotFile>(tx, `SELECT path, content FROM ${schema}.confctl_snapshot_files ORDER BY path`);
        checkFiles?.(files);
        await tx.query(`LOCK TABLE ${SNAPSHOT_TABLES.join(', ')} IN EXCLUSIVE MODE`);
        for (const table of [...SNAPSHOT_TABLES].reverse()) await tx.query(`DELETE FROM ${table}`);
        const columns = await liveColumns(tx);
        for (const table of SNAPSHOT_TABLES) {
          const list = columns.get(table);
          await tx.query(`INSERT INTO ${table} (${list}) SELECT ${list} FROM ${schema}.${table}`);
        }
        await resetSequences(tx);
        return { info, files };
      }),

    async list() {
      const names = await all<{ nspname: string }>(pool, `SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname`, [PREFIX]);
      return Promise.all(names.map((n) => infoOf(pool, n.nspname.slice(PREFIX.length))));
    },

    remove: (name) =>
      inTransaction(pool, async (tx) => {
        const schema = schemaOf(name);
        await lockName(tx, SNAPSHOT_LOCK);
        if (!(await exists(tx, name))) return false;
        await tx.query(`DROP SCHEMA ${schema} CASCADE`);
        return true;
      }),
  };
}
