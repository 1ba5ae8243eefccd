import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../../src/store/postgres/pool.js';
import { oncePerTurn, sharingReads, TurnQueue } from '../../../src/store/postgres/turn.js';

/** A Queryable that records every statement it is sent and answers its text and values back. */
function recording() {
  const sent: Array<{ text: string; values?: unknown[] }> = [];
  const db: Queryable = {
    query: async (text, values) => {
      sent.push({ text, values });
      if (text.includes('fail')) throw new Error('refused');
      return { rows: [{ text, values }], rowCount: 1, command: 'SELECT', oid: 0, fields: [] } as pg.QueryResult;
    },
  };
  return { db, sent };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnQueue', () => {
  it('runs each key once per turn with how many asked, and gives each asker its own share', async () => {
    const runs: Array<[string, number]> = [];
    const queue = new TurnQueue<string, string>(async (args) => {
      runs.push([args[0], args.length]);
      return args.map((key, i) => `${key}${i + 1}`);
    });
    const first = await Promise.all([queue.ask('a', 'a'), queue.ask('b', 'b'), queue.ask('a', 'a'), queue.ask('a', 'a')]);
    expect(first).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(runs).toEqual([['a', 3], ['b', 1]]);
    expect(await queue.ask('a', 'a')).toBe('a1');
    expect(runs).toEqual([['a', 3], ['b', 1], ['a', 1]]);
  });

  it('gives run every asker\'s argument, in the order they asked', async () => {
    const queue = new TurnQueue<number, number>(async (ids) => ids.map((id) => id * 10));
    expect(await Promise.all([queue.ask('t1', 3), queue.ask('t1', 1), queue.ask('t2', 3)])).toEqual([30, 10, 30]);
  });

  it('sends nothing before the turn ends, so a question asked later in the turn still joins', async () => {
    const runs: number[] = [];
    const queue = new TurnQueue<string, number>(async (args) => (runs.push(args.length), args.map(() => args.length)));
    const early = queue.ask('k', 'k');
    await Promise.resolve();
    expect(runs).toEqual([]);
    const late = queue.ask('k', 'k');
    expect(await Promise.all([early, late])).toEqual([2, 2]);
  });

  it('rejects every asker of a failed run, and only them', async () => {
    const queue = new TurnQueue<string, string>(async (args) => {
      if (args[0] === 'bad') throw new Error('no');
      return args;
    });
    const results = await Promise.allSettled([queue.ask('bad', 'bad'), queue.ask('bad', 'bad'), queue.ask('good', 'good')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
  });
});

describe('oncePerTurn', () => {
  it('reads once per turn, at its end, every caller of the turn sharing one value; the next turn reads again', async () => {
    let reads = 0;
    const read = oncePerTurn(async () => ({ read: ++reads }));
    const early = read();
    await Promise.resolve();
    expect(reads).toBe(0);
    const late = read();
    expect(late).toBe(early);
    const [a, b] = await Promise.all([early, late]);
    expect(a).toBe(b);
    expect(a).toEqual({ read: 1 });
    expect(await read()).toEqual({ read: 2 });
  });

  it('shares the read with a caller started at the end of the turn, from setImmediate, as the server starts its queued requests', async () => {
    let reads = 0;
    const read = oncePerTurn(async () => ++reads);
    const first = read();
    const queued = new Promise((resolve) => setImmediate(() => resolve(read())));
    expect(await Promise.all([first, queued])).toEqual([1, 1]);
    expect(reads).toBe(1);
  });

  it("rejects every caller of a failed turn's read; the next turn reads again", async () => {
    let fail = true;
    const read = oncePerTurn(async () => {
      if (fail) throw new Error('refused');
      return 'ok';
    });
    const failed = await Promise.allSettled([read(), read()]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await read()).toBe('ok');
  });
});

describe('sharingReads', () => {
  it('sends identical SELECTs of one turn once; different values, later turns, writes and locking reads each go', async () => {
    const { db, sent } = recording();
    const shared = sharingReads(db);
    const [a, b, c] = await Promise.all([
      shared.query('SELECT x FROM t WHERE id = $1', [1]),
      shared.query('SELECT x FROM t WHERE id = $1', [1]),
      shared.query('SELECT x FROM t WHERE id = $1', [2]),
      shared.query('SELECT counters FROM c'),
      shared.query('SELECT counters FROM c'),
    ]);
    expect(a.rows).toEqual([{ text: 'SELECT x FROM t WHERE id = $1', values: [1] }]);
    expect(b).toBe(a);
    expect(c.rows[0].values).toEqual([2]);
    expect(sent).toHaveLength(3);
    await nextTurn();
    await shared.query('SELECT x FROM t WHERE id = $1', [1]);
    expect(sent).toHaveLength(4);
    sent.length = 0;
    await Promise.all([
      shared.query('INSERT INTO t VALUES ($1)', [1]),
      shared.query('INSERT INTO t VALUES ($1)', [1]),
      shared.query('SELECT x FROM t WHERE id = $1 FOR UPDATE', [1]),
      shared.query('SELECT x FROM t WHERE id = $1 FOR UPDATE', [1]),
      shared.query('SELECT pg_advisory_xact_lock(1)'),
      shared.query('SELECT pg_advisory_xact_lock(1)'),
      shared.query('WITH c AS (UPDATE t SET x = 1 RETURNING x) SELECT x FROM c'),
      shared.query('WITH c AS (UPDATE t SET x = 1 RETURNING x) SELECT x FROM c'),
    ]);
    expect(sent).toHaveLength(8);
  });

  it('rejects every sharer of a failed read', async () => {
    const { db } = recording();
    const shared = sharingReads(db);
    const results = await Promise.allSettled([shared.query('SELECT fail'), shared.query('SELECT fail')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
