import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { GroupLost, GROUP_TURNS, commitGroups } from '../../src/store/sqlite/commit-groups.js';
import { beforeWrites } from '../../src/store/sqlite/write-guard.js';
import { changeSignal } from '../../src/store/sqlite/db.js';
import { isBusyError } from '../../src/store/index.js';
import { tempDir } from '../tmp.js';
import { openStore } from '../../src/store/sqlite/index.js';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

/** Two connections to a new WAL database file holding `schema`: `db` under test, `other` standing for another process. */
function twoConnections(schema: string) {
  const file = join(tempDir('confctl-groups-'), 'groups.db');
  const db = new Database(file);
  const other = new Database(file);
  open.push(db, other);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.exec(schema);
  return { db, other };
}

/**
 * Group commit on a real database file, with the COMMIT scheduled by hand (`commitNow`) instead
 * of at `setImmediate`; a second connection stands for anyone who sees only committed data.
 */
describe('commit groups', () => {
  function setup() {
    const { db, other: reader } = twoConnections(
      'CREATE TABLE parent (id INTEGER PRIMARY KEY, email TEXT UNIQUE); CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id))',
    );
    const scheduled: (() => void)[] = [];
    const groups = commitGroups(db, (commit) => scheduled.push(commit));
    const insert = db.prepare('INSERT INTO parent (email) VALUES (?)');
    /** One request's write: joins the group, then inserts. */
    const write = (email: string) => {
      groups.join();
      insert.run(email);
    };
    const committed = () => reader.prepare('SELECT email FROM parent ORDER BY id').pluck().all();
    const commitNow = () => scheduled.splice(0).forEach((commit) => commit());
    return { db, reader, groups, write, committed, commitNow, scheduled };
  }

  it('writes joined before the COMMIT share one transaction; nothing is visible or settled until it commits', async () => {
    const { groups, write, committed, commitNow, scheduled } = setup();
    const mark = groups.mark();
    write('a@example.com');
    write('b@example.com');
    expect(scheduled).toHaveLength(1);
    expect(committed()).toEqual([]);
    let settled = false;
    const done = groups.settled(mark)!.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    commitNow();
    await done;
    expect(committed()).toEqual(['a@example.com', 'b@example.com']);
    expect(groups.settled(mark)).toBeUndefined();
  });

  it('a failing write undoes only itself: a unique clash, or a transaction function (a savepoint) that throws', async () => {
    const { db, groups, write, committed, commitNow } = setup();
    const mark = groups.mark();
    write('a@example.com');
    expect(() => write('a@example.com')).toThrow(/UNIQUE/);
    groups.join();
    expect(() =>
      db.transaction(() => {
        db.prepare("INSERT INTO parent (email) VALUES ('undone@example.com')").run();
        throw new Error('refused');
      }).immediate(),
    ).toThrow('refused');
    write('b@example.com');
    const done = groups.settled(mark);
    commitNow();
    await done;
    expect(committed()).toEqual(['a@example.com', 'b@example.com']);
  });

  it('a failed COMMIT rolls the whole group back and rejects every member, and the next group commits', async () => {
    const { db, groups, write, committed, commitNow } = setup();
    const first = groups.mark();
    write('a@example.com');
    const second = groups.mark();
    groups.join();
    // A foreign key checked at COMMIT only: the COMMIT fails, though every statement succeeded.
    db.pragma('defer_foreign_keys = ON');
    db.prepare('INSERT INTO child (parent_id) VALUES (42)').run();
    const a = groups.settled(first);
    const b = groups.settled(second);
    commitNow();
    await expect(a).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    await expect(b).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    expect(db.inTransaction).toBe(false);
    expect(committed()).toEqual([]);
    // A member that comes to ask later still hears of the failure; a request that starts now does not.
    await expect(groups.settled(first)).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    const third = groups.mark();
    expect(groups.settled(third)).toBeUndefined();
    write('c@example.com');
    const c = groups.settled(third);
    commitNow();
    await c;
    expect(committed()).toEqual(['c@example.com']);
  });

  it('a group whose transaction SQLite rolled back before the COMMIT fails its members with GroupLost', async () => {
    const { db, groups, write, committed, commitNow } = setup();
    const first = groups.mark();
    write('a@example.com');
    // What SQLite does itself after some I/O errors: the transaction is gone.
    db.exec('ROLLBACK');
    // Began while the lost group was open, so it may have read from it: it fails too.
    const during = groups.mark();
    // The next join ends the lost group and opens a new one.
    write('b@example.com');
    const after = groups.mark();
    write('c@example.com');
    await expect(groups.settled(first)).rejects.toBeInstanceOf(GroupLost);
    await expect(groups.settled(during)).rejects.toBeInstanceOf(GroupLost);
    const c = groups.settled(after);
    commitNow();
    await c;
    expect(committed()).toEqual(['b@example.com', 'c@example.com']);
  });

  it('moves the change signal when a group is rolled back, though total_changes() does not go back', () => {
    const { db, write, commitNow } = setup();
    const token = changeSignal(db);
    write('a@example.com');
    db.pragma('defer_foreign_keys = ON');
    db.prepare('INSERT INTO child (parent_id) VALUES (42)').run();
    const before = token();
    commitNow();
    expect(token()).not.toBe(before);
  });

  it('join fails busy and opens nothing while another connection holds the write lock', () => {
    const { db, reader, groups, scheduled } = setup();
    db.pragma('busy_timeout = 0');
    reader.exec('BEGIN IMMEDIATE');
    const mark = groups.mark();
    let error: unknown;
    try {
      groups.join();
    } catch (err) {
      error = err;
    }
    expect(isBusyError(error)).toBe(true);
    expect(db.inTransaction).toBe(false);
    expect(scheduled).toHaveLength(0);
    expect(groups.settled(mark)).toBeUndefined();
    reader.exec('ROLLBACK');
  });

  it('the SQLite store commits an open group when it closes', () => {
    const file = join(tempDir('confctl-groups-'), 'confctl.db');
    const store = openStore(file);
    const tenant = store.tenants.create('a.test').id;
    store.commits.join();
    store.customers.insert(tenant, { first_name: 'F', last_name: 'L', email: 'kept@example.com' });
    store.close();
    const again = openStore(file);
    expect(again.customers.emailTaken(tenant, 'kept@example.com')).toBe(true);
    again.close();
  });

  it(`the SQLite store keeps a group open while writes keep joining it, for ${GROUP_TURNS} turns of the event loop at most; a lone write commits at the end of its turn`, async () => {
    expect(GROUP_TURNS).toBe(3);
    const file = join(tempDir('confctl-groups-'), 'confctl.db');
    const store = openStore(file);
    const reader = new Database(file, { readonly: true });
    const tenant = store.tenants.create('a.test').id;
    const visible = () => reader.prepare("SELECT count(*) FROM customers WHERE email LIKE '%@turns.test'").pluck().get();
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    const write = (name: string) => {
      store.commits.join();
      store.customers.insert(tenant, { first_name: 'F', last_name: 'L', email: `${name}@turns.test` });
    };
    write('lone');
    await turn();
    expect(visible()).toBe(1);
    const mark = store.commits.mark();
    write('a1');
    write('a2');
    await turn();
    write('b');
    await turn();
    write('c');
    expect([store.commits.mark(), visible()]).toEqual([mark, 1]); // one group, not committed yet
    await turn();
    write('d'); // the group committed at the end of its third turn; this one opens the next
    expect([store.commits.mark(), visible()]).toEqual([mark + 1, 5]);
    await store.commits.settled(mark + 1);
    expect(visible()).toBe(6);
    reader.close();
    store.close();
  });
});

/**
 * The shared read transaction (`CommitGroups.read`) on a real file, with a second connection
 * standing for another process that commits while it is open.
 */
describe('shared reads', () => {
  /** `guard` false leaves out `beforeWrites`, to show what it prevents. */
  function setup(guard = true) {
    const { db, other } = twoConnections('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const scheduled: (() => void)[] = [];
    const groups = commitGroups(db, (end) => scheduled.push(end));
    if (guard) beforeWrites(db, groups.endRead);
    const count = db.prepare('SELECT count(*) FROM t').pluck();
    const otherInsert = other.prepare('INSERT INTO t (v) VALUES (?)');
    return { db, groups, count, otherInsert, scheduled };
  }

  it('the reads of one synchronous run share a snapshot; a request of a later run reads what was committed since', async () => {
    const { db, groups, count, otherInsert, scheduled } = setup();
    groups.read();
    expect(count.get()).toBe(0);
    otherInsert.run('a');
    groups.read();
    expect(count.get()).toBe(0);
    expect(db.inTransaction).toBe(true);
    await Promise.resolve();
    groups.read();
    expect(count.get()).toBe(1);
    scheduled.splice(0).forEach((end) => end());
    expect(db.inTransaction).toBe(false);
  });

  it('a write of any kind ends it first, and succeeds where another process committed meanwhile', () => {
    const { db, groups, count, otherInsert } = setup();
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const writes: Array<() => unknown> = [
      () => insert.run('statement'),
      () => db.prepare('UPDATE t SET v = v').run(),
      () => db.exec("INSERT INTO t (v) VALUES ('exec')"),
      () => db.transaction(() => insert.run('transaction')).immediate(),
      () => db.transaction(() => insert.run('transaction'))(),
      () => {
        groups.join();
        insert.run('group');
      },
    ];
    for (const write of writes) {
      groups.read();
      count.get();
      otherInsert.run('other');
      expect(write).not.toThrow();
      groups.flush();
    }
    expect(count.get()).toBe(6 + 5);
    expect(db.inTransaction).toBe(false);
  });

  it('without the guard, the same write fails with SQLITE_BUSY_SNAPSHOT: why every write ends it', () => {
    const { db, groups, count, otherInsert } = setup(false);
    groups.read();
    count.get();
    otherInsert.run('other');
    expect(() => db.prepare('INSERT INTO t (v) VALUES (?)').run('mine')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY_SNAPSHOT' }));
  });

  it('read-only statements stay as better-sqlite3 made them; inside an open group, reads join it', () => {
    const { db, groups, count } = setup();
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    expect(Object.hasOwn(count, 'get')).toBe(false);
    expect(Object.hasOwn(insert, 'run')).toBe(true);
    groups.join();
    insert.run('x');
    groups.read();
    expect(count.get()).toBe(1);
    groups.flush();
  });
});
