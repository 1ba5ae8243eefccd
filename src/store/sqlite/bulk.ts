/**
 * Bulk loading of users and customers for the seeder (`admin seed --users N --customers N`): the
 * rows `users.insert` and `customers.insert` would store, in one write transaction, at a fraction
 * of their cost.
 *
 * A large load (`deferIndexes`) drops the table's indexes and recreates them from their own SQL
 * afterwards (one sort each instead of a B-tree insert per row and index), and writes each user's
 * JSON text itself in place of migration 8's insert trigger (one row write instead of two; the
 * text is built from `USER_JSON_FIELDS`, the trigger's own field list), and fills the trigram
 * tables (migration 10) by one INSERT … SELECT over the loaded rows in place of their insert
 * triggers, and counts the table's rows per tenant again (migration 13's counters) in place of its
 * counter trigger. Every other trigger stays
 * in place, so whatever a migration derives from these tables through triggers stays right; all
 * of it happens inside the transaction, so other connections never see the tables without them.
 * The load commits with `synchronous = FULL` (2: the journal and the database are synced at its
 * commit), so the rows are on disk when `load` returns, as a seed promises when it says done. A
 * load that has the database to itself writes through a rollback journal instead of the WAL (see
 * `rollbackJournal`): at 100,000 users and 100,000 customers its commit took 0.9 s instead of 2.8 s.
 * A large load of customers after one of users builds the customers on the second core and copies
 * them in (`bulkLoader`, side-table.ts): at 1M + 1M the main thread's CPU fell from 70-78 s to
 * 60-63 s (docs/performance.md).
 */
import { availableParallelism } from 'node:os';
import type { Statement } from 'better-sqlite3';
import type { CustomerInsert } from '../types.js';
import type { BulkLoad, BulkRepo } from './store.js';
import { USER_JSON_FIELDS } from '../user-json.js';
import { isSqliteBusyError } from '../busy.js';
import { type Db } from './db.js';
import { foreignKeyTally, type ForeignKeyTally } from './foreign-key-tally.js';
import { sideTable, type SideTable } from './side-table.js';
import { CUSTOMER_COLUMNS, customerRow } from '../rows/customers.js';
import { USER_COLUMNS, userRow } from '../rows/users.js';
import { FTS5_DEFAULT_HASH_BYTES, type TrigramTable, trigramFillSql, trigramHashsizeSql, trigramTablesOf, trigramTriggers } from './trigram.js';
import { counterInsertTrigger, recountListCounts } from './list-counts.js';


/** Loads at least this large, and at least as large as the table, defer the table's index builds. */
const DEFER_FROM_ROWS = 20_000;
/** The trigger that writes `users.json` on insert (migration 8), replaced during a deferred load by the text written directly. */
const USER_JSON_TRIGGER = 'users_json_insert';
/**
 * The page cache during a load (KiB, as `cache_size` takes it negatively). At 1M users and 1M
 * customers, 1 GiB instead saved 6 % of the CPU time for 2.6× the peak RSS.
 */
const LOAD_CACHE_KIB = 256 * 1024;
/**
 * The page cache while a table's indexes are built again (KiB). SQLite's sorter keeps up to the
 * page cache's size of keys in memory before it writes a sorted run, and the helper threads sort
 * those runs: one index of 1M users built in 2.0–2.2 s of CPU with 256 MiB (one sort of all keys
 * in memory), 1.6–1.75 s with 8 MiB and 1.35–1.4 s with 2 MiB (runs that fit the CPU's caches).
 */
const SORT_CACHE_KIB = 2 * 1024;
/**
 * FTS5's pending-text buffer (`hashsize`, bytes) for a load's trigram fills: four times a
 * migration's TRIGRAM_FILL_HASH_BYTES (trigram.ts), so FTS5 writes and merges a quarter of the
 * segments. Filling the texts of 1,000,000 customers took 7.9-9.6 s of CPU instead of 11.5-12.5 s
 * (two rounds each), for about 250 MB more peak RSS: a seed is a one-off command, and `serve`,
 * whose RSS is budgeted, never loads in bulk.
 */
const LOAD_FILL_HASH_BYTES = 256 * 1024 * 1024;
/** Helper threads SQLite's sorter may use for the index builds (`PRAGMA threads`): the other cores. */
const SORT_THREADS = Math.max(1, availableParallelism() - 1);

/** The text migration 8's trigger stores for the user `u` (stored columns, `id`, `name` and `department_name`). */
export function userJsonText(u: Record<string, unknown>): string {
  const parts = USER_JSON_FIELDS.map(([key, , raw]) => {
    if (!(key in u)) throw new Error(`the bulk loader has no value for the user's JSON field ${key}`);
    const value = u[key];
    return `"${key}":${raw ? ((value as string | null) ?? 'null') : JSON.stringify(value)}`;
  });
  return `{${parts.join(',')}}`;
}

export function bulkRepo(db: Db): BulkRepo {
  return {
    load(fn) {
      // Foreign keys can be switched off only outside a transaction: then the load may copy a table built aside.
      const aside = !db.inTransaction && !db.memory;
      const settings = { cache_size: -LOAD_CACHE_KIB, synchronous: 2, threads: SORT_THREADS, ...(aside ? { foreign_keys: 0 } : {}) };
      const before = Object.fromEntries(Object.keys(settings).map((name) => [name, db.pragma(name, { simple: true }) as number]));
      for (const [name, value] of Object.entries(settings)) db.pragma(`${name} = ${value}`);
      const journal = rollbackJournal(db);
      const loader = bulkLoader(db, aside);
      try {
        return db
          .transaction(() => {
            const loaded = fn(loader.load);
            loader.finish();
            return loaded;
          })
          .immediate();
      } finally {
        loader.close();
        journal.restore();
        for (const [name, value] of Object.entries(before)) db.pragma(`${name} = ${value}`);
      }
    },
  };
}

/**
 * The inserts of one load. `unchecked`: the connection does not enforce foreign keys during the
 * load, so each table's keys are checked by a `foreignKeyTally` of the rows written, and a large
 * load of customers into an empty table is built aside (`sideTable`): the rows written into the
 * side file, its indexes built there on a worker thread while this thread finishes the users' load
 * (their trigram fill and index builds run when the customers' rows are written, or at the end of
 * the load), then the table copied in; only after a deferred load of users, whose work the build
 * aside runs beside. The stored rows, indexes and triggers are the same.
 */
function bulkLoader(db: Db, unchecked: boolean): { load: BulkLoad; finish(): void; close(): void } {
  let usersLeft: (() => void) | undefined;
  const sides: SideTable[] = [];
  /** Runs what is left of the users' deferred load. */
  const finish = () => {
    const left = usersLeft;
    usersLeft = undefined;
    left?.();
  };
  const tally = (table: string, columns: readonly string[]) => (unchecked ? foreignKeyTally(db, table, columns) : undefined);
  /** Inserts through `insert` the values `toValues` gives for each row, noting their keys in `keys`. */
  const insertAll = <R>(insert: Statement, keys: ForeignKeyTally | undefined, rows: Iterable<R>, count: number, toValues: (row: R) => unknown[]) => {
    const loaded = take(rows, count, (row) => {
      const v = toValues(row);
      keys?.add(v);
      insert.run(...v);
    });
    keys?.check();
    return loaded;
  };
  const customerColumns = ['tenant_id', ...CUSTOMER_COLUMNS];
  const customerInsert = (on: Db) => on.prepare(`INSERT INTO customers (${customerColumns.join(', ')}) VALUES (?${', ?'.repeat(CUSTOMER_COLUMNS.length)})`);
  const load: BulkLoad = {
    users(tenantId, count, rows, options) {
      finish();
      const defer = options?.deferIndexes ?? deferFor(db, 'users', count);
      if (!defer) {
        const columns = ['tenant_id', ...USER_COLUMNS];
        const insert = db.prepare(`INSERT INTO users (${columns.join(', ')}) VALUES (?${', ?'.repeat(USER_COLUMNS.length)})`);
        return insertAll(insert, tally('users', columns), rows, count, (row) => [tenantId, ...values(userRow(row), USER_COLUMNS)]);
      }
      const restore = suspend(db, 'users', [USER_JSON_TRIGGER, trigramTriggers(trigramTablesOf('users')[0]).insert, counterInsertTrigger('users')]);
      const columns = ['id', 'tenant_id', 'json', ...USER_COLUMNS];
      const insert = db.prepare(`INSERT INTO users (${columns.join(', ')}) VALUES (?, ?, ?${', ?'.repeat(USER_COLUMNS.length)})`);
      const departmentName = db.prepare('SELECT name FROM departments WHERE id = ?').pluck();
      const names = new Map<number, string | null>();
      const nameOf = (id: number | null) => {
        if (id === null) return null;
        if (!names.has(id)) names.set(id, (departmentName.get(id) as string | undefined) ?? null);
        return names.get(id)!;
      };
      let id = db.prepare('SELECT coalesce(max(id), 0) FROM users').pluck().get() as number;
      const firstId = id + 1;
      const loaded = insertAll(insert, tally('users', columns), rows, count, (row) => {
        const stored = userRow(row);
        id++;
        const text = userJsonText({ id, ...stored, name: `${stored.first_name} ${stored.last_name}`, department_name: nameOf(stored.department_id) });
        return [id, tenantId, text, ...values(stored, USER_COLUMNS)];
      });
      usersLeft = () => {
        fillTrigrams(db, 'users', firstId);
        restore();
        recountListCounts(db, ['users']);
      };
      return loaded;
    },
    customers(tenantId, count, rows, options) {
      const toValues = (row: CustomerInsert) => [tenantId, ...values(customerRow(row), CUSTOMER_COLUMNS)];
      if (!(options?.deferIndexes ?? deferFor(db, 'customers', count))) {
        finish();
        return insertAll(customerInsert(db), tally('customers', customerColumns), rows, count, toValues);
      }
      const triggers = [trigramTriggers(trigramTablesOf('customers')[0]).insert, counterInsertTrigger('customers')];
      const firstId = (db.prepare('SELECT coalesce(max(id), 0) FROM customers').pluck().get() as number) + 1;
      // Aside only when the users' deferred work can run beside the worker: alone, the copy would add to the builds.
      if (!unchecked || !usersLeft || firstId !== 1 || db.prepare('SELECT EXISTS (SELECT 1 FROM customers)').pluck().get()) {
        finish();
        const restore = suspend(db, 'customers', triggers);
        const loaded = insertAll(customerInsert(db), tally('customers', customerColumns), rows, count, toValues);
        fillTrigrams(db, 'customers', firstId);
        restore();
        recountListCounts(db, ['customers']);
        return loaded;
      }
      // The table is empty: built aside, and copied into its indexes created again (empty, in the same place in the
      // schema as a load in place puts them) with its INSERT triggers still dropped (a copy needs none).
      const side = sideTable(db, 'customers');
      sides.push(side);
      const restore = suspend(db, 'customers', triggers);
      const loaded = side.db.transaction(() => insertAll(customerInsert(side.db), tally('customers', customerColumns), rows, count, toValues))();
      side.build({ cache_size: -SORT_CACHE_KIB, threads: SORT_THREADS });
      finish();
      restore('index');
      side.copy();
      fillTrigrams(db, 'customers', firstId);
      restore();
      recountListCounts(db, ['customers']);
      return loaded;
    },
  };
  return {
    load,
    finish,
    close() {
      for (const side of sides.splice(0)) side.close();
    },
  };
}

/**
 * Writes the texts of the rows from `firstId` on into each trigram table of `table` with a
 * LOAD_FILL_HASH_BYTES pending index, then sets FTS5's default (1 MiB) back: the configuration
 * table keeps that row (FTS5 has no command to delete a setting, and its tables may not be written
 * directly), so later writes behave as in a table that never had the setting.
 */
function fillTrigrams(db: Db, table: TrigramTable['table'], firstId: number): void {
  for (const t of trigramTablesOf(table)) {
    db.exec(trigramHashsizeSql(t, LOAD_FILL_HASH_BYTES));
    db.prepare(trigramFillSql(t, 'id >= ?')).run(firstId);
    db.exec(trigramHashsizeSql(t, FTS5_DEFAULT_HASH_BYTES));
  }
}

const values = (row: Record<string, unknown>, columns: readonly string[]) => columns.map((c) => row[c]);

/** Whether a load of `count` rows into `table` should defer its index builds (see DEFER_FROM_ROWS). */
function deferFor(db: Db, table: 'users' | 'customers', count: number): boolean {
  return count >= DEFER_FROM_ROWS && count >= (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number);
}

/** Runs `each` for the first `count` rows of `rows`; throws when there are fewer. Answers `count`. */
function take<R>(rows: Iterable<R>, count: number, each: (row: R) => void): number {
  let n = 0;
  if (count > 0) {
    for (const row of rows) {
      each(row);
      if (++n === count) break;
    }
  }
  if (n < count) throw new Error(`bulk load: ${count} rows expected, ${n} given`);
  return n;
}

/**
 * Drops `table`'s indexes and the named triggers on it; answers a function that creates them
 * again from the SQL they were created with (indexes first: each is built by one sort, with a
 * SORT_CACHE_KIB page cache), in the order they were created: the planner weighs a table's
 * indexes in schema order, and between plans it costs alike (a list's order index or a filter's
 * index and a sort) the order decides. Given 'index', it creates the indexes alone, and a later
 * call the triggers.
 */
function suspend(db: Db, table: string, triggers: readonly string[]): (only?: 'index') => void {
  const saved = db
    .prepare(`SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = ? AND sql IS NOT NULL
      AND (type = 'index' OR (type = 'trigger' AND name IN (SELECT value FROM json_each(?)))) ORDER BY type = 'trigger', rowid`)
    .all(table, JSON.stringify(triggers)) as { type: 'index' | 'trigger'; name: string; sql: string }[];
  for (const s of saved) db.exec(`DROP ${s.type.toUpperCase()} "${s.name}"`);
  return (only) => {
    const cache = db.pragma('cache_size', { simple: true }) as number;
    db.pragma(`cache_size = -${SORT_CACHE_KIB}`);
    try {
      while (saved.length && (!only || saved[0].type === only)) db.exec(saved.shift()!.sql);
    } finally {
      db.pragma(`cache_size = ${cache}`);
    }
  };
}

/**
 * Switches a WAL database to a rollback journal for one load when no other connection has it
 * open (PRAGMA journal_mode needs the database to itself; tried without waiting), so each page the
 * load adds is written once, into the database file: in WAL mode the commit writes every page into
 * the WAL and the checkpoint writes it again. A rollback journal keeps only the pages the database
 * had before (new pages past its end need none), and the commit syncs the file, so a crash leaves
 * the database as it was. Answers how to go back to WAL; a switch refused leaves WAL in place.
 */
function rollbackJournal(db: Db): { restore(): void } {
  const same = { restore() {} };
  if (db.inTransaction || db.memory || db.pragma('journal_mode', { simple: true }) !== 'wal') return same;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    if (db.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') return same;
  } catch (err) {
    if (!isSqliteBusyError(err)) throw err;
    return same;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
  return {
    restore() {
      try {
        db.pragma('journal_mode = WAL');
      } catch (err) {
        // Another connection opened the file meanwhile and holds it: the next `openDatabase` sets WAL again.
        if (!isSqliteBusyError(err)) throw err;
      }
    },
  };
}
