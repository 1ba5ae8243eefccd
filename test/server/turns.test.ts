import { describe, expect, it } from 'vitest';
import { createTurns, FIRST_PER_TURN, MAX_PER_TURN } from '../../src/server/turns.js';

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));
/** A clock that stands still: no turn seems to last, so the budget never shrinks for time (on a loaded machine the real one did, and fewer started). */
const still = () => 0;

describe('turns', () => {
  it('start 64 requests in a turn, queue the rest, and start an idle connection’s request before queued pipelined ones', async () => {
    const turns = createTurns(undefined, still);
    const order: string[] = [];
    for (let i = 0; i < 70; i++) turns.run(() => order.push(`p${i}`), false);
    expect(order).toHaveLength(64);
    turns.run(() => order.push('fresh'), true);
    expect(order).toHaveLength(64); // nothing starts at once while requests are queued
    await endOfTurn();
    expect(order.slice(64)).toEqual(['fresh', 'p64', 'p65', 'p66', 'p67', 'p68', 'p69']);
  });

  it('start queued requests one per connection in turn, each connection’s in order', async () => {
    const turns = createTurns<string>(undefined, still);
    const order: string[] = [];
    for (let i = 0; i < 64; i++) turns.run(() => {}, false, 'earlier');
    const queue = (from: string, n: number) => {
      for (let i = 0; i < n; i++) turns.run(() => order.push(`${from}${i}`), false, from);
    };
    queue('a', 5);
    queue('b', 2);
    queue('c', 2);
    await endOfTurn();
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'c1', 'a2', 'a3', 'a4']);
  });

  it('start an idle connection’s request ahead only while its connection has nothing else in hand', async () => {
    const piped = { alone: false };
    const single = { alone: true };
    const turns = createTurns<{ alone: boolean }>(undefined, still, undefined, undefined, (from) => from.alone);
    const order: string[] = [];
    for (let i = 0; i < 64; i++) turns.run(() => {}, false, { alone: false });
    // `piped` was idle as its first request came, and brought two more behind it (one read).
    turns.run(() => order.push('piped0'), true, piped);
    turns.run(() => order.push('other0'), false, { alone: false });
    turns.run(() => order.push('piped1'), false, piped);
    turns.run(() => order.push('piped2'), false, piped);
    turns.run(() => order.push('single0'), true, single);
    await endOfTurn();
    expect(order).toEqual(['single0', 'other0', 'piped0', 'piped1', 'piped2']);
  });

  it('start at once again once the queue has drained', async () => {
    const turns = createTurns(undefined, still);
    const order: number[] = [];
    for (let i = 0; i < 65; i++) turns.run(() => order.push(i), false);
    await endOfTurn();
    expect(order).toHaveLength(65);
    turns.run(() => order.push(65), true);
    expect(order).toHaveLength(66);
  });
});

/** Turns of up to `MAX_PER_TURN` (a store of round trips) on a manual clock: `advance` moves it, as a request's work would. */
function clocked() {
  let clock = 0;
  const turns = createTurns(undefined, () => clock, MAX_PER_TURN);
  return { turns, advance: (ms: number) => (clock += ms) };
}

describe('turns, counted and timed', () => {
  it('start one request in a turn in which a connection was accepted, and one at its end: libuv accepts one connection a turn', async () => {
    const { turns } = clocked();
    let started = 0;
    turns.connected();
    for (let i = 0; i < 10; i++) turns.run(() => started++, false);
    expect([started, turns.queued()]).toEqual([1, 9]);
    await endOfTurn();
    expect(started).toBe(2);
    await endOfTurn(); // no connection accepted in the turn that ended: a whole batch
    expect([started, turns.queued()]).toEqual([10, 0]);
  });

  it('lower the budget to the pace of a turn that started one request as a connection was accepted', async () => {
    const { turns, advance } = clocked();
    let started = 0;
    turns.connected();
    for (let i = 0; i < 100; i++) turns.run(() => started++, false);
    advance(2); // the one request and the reads of the turn: 5 such fit in 10 ms
    await endOfTurn();
    expect([started, turns.budget()]).toEqual([2, 5]);
    advance(2);
    await endOfTurn();
    expect([started, turns.budget()]).toEqual([7, 5]);
  });

  it('lower the budget to the pace of the turn in which requests began to queue', async () => {
    const { turns, advance } = clocked();
    let started = 0;
    for (let i = 0; i < 100; i++) turns.run(() => started++, false);
    advance(100); // the 64 started at once and the turn's reads (the pipelines of 200 connections) took 100 ms
    await endOfTurn();
    expect([started, turns.budget()]).toEqual([70, 6]);
  });

  it('in a turn in which a connection was accepted, start a request of the backlog only if none has started for 10 ms', async () => {
    const { turns, advance } = clocked();
    const order: string[] = [];
    const run = (name: string, idle: boolean) => turns.run(() => order.push(name), idle);
    turns.connected();
    run('first', true);
    for (let i = 0; i < 3; i++) run(`backlog${i}`, false);
    await endOfTurn(); // none has started from the backlog yet
    expect(order).toEqual(['first', 'backlog0']);
    turns.connected();
    run('fresh', true);
    await endOfTurn(); // an idle connection's request, not the backlog's
    expect(order).toEqual(['first', 'backlog0', 'fresh']);
    turns.connected();
    await endOfTurn();
    expect(order).toHaveLength(3);
    advance(10);
    turns.connected();
    await endOfTurn();
    expect(order).toEqual(['first', 'backlog0', 'fresh', 'backlog1']);
    await endOfTurn(); // no connection accepted: the queue goes on
    expect(order).toEqual(['first', 'backlog0', 'fresh', 'backlog1', 'backlog2']);
  });

  it('count each turn afresh, though nothing was queued', async () => {
    const { turns } = clocked();
    let started = 0;
    for (let i = 0; i < FIRST_PER_TURN - 4; i++) turns.run(() => started++, false);
    await endOfTurn();
    for (let i = 0; i < FIRST_PER_TURN - 4; i++) turns.run(() => started++, false);
    expect([started, turns.queued()]).toEqual([2 * (FIRST_PER_TURN - 4), 0]);
  });

  it(`double the budget while queued batches follow one another in under 5 ms, up to ${MAX_PER_TURN}, and start that many at once then`, async () => {
    expect([FIRST_PER_TURN, MAX_PER_TURN]).toEqual([64, 512]);
    const { turns } = clocked();
    let started = 0;
    for (let i = 0; i < 1_100; i++) turns.run(() => started++, false);
    const batches = [started];
    while (turns.queued()) {
      const before = started;
      await endOfTurn();
      batches.push(started - before);
    }
    expect(batches).toEqual([64, 64, 128, 256, 512, 76]);
    expect(turns.budget()).toBe(512);
    await endOfTurn();
    for (let i = 0; i < 600; i++) turns.run(() => started++, false);
    expect([started - 1_100, turns.queued()]).toEqual([512, 88]);
  });

  it('halve the budget when a queued batch took over 10 ms', async () => {
    const { turns, advance } = clocked();
    const batches: number[] = [];
    let started = 0;
    for (let i = 0; i < 164; i++) turns.run(() => started++, false);
    await endOfTurn(); // the 64 started at once took no time: a first batch of 64
    batches.push(started - 64);
    while (turns.queued()) {
      const before = started;
      advance(11);
      await endOfTurn();
      batches.push(started - before);
    }
    expect(batches).toEqual([64, 32, 4]);
    expect(turns.budget()).toBe(16);
  });

  it('cut the budget to what fitted in 10 ms when a queued batch took far longer', async () => {
    const { turns, advance } = clocked();
    let started = 0;
    for (let i = 0; i < 200; i++) turns.run(() => started++, false);
    await endOfTurn();
    advance(100); // the 64 of the first batch took 100 ms: 6 fit in 10
    await endOfTurn();
    expect([started, turns.budget()]).toEqual([134, 6]);
  });

  /** Turns whose budget queued batches have grown to `MAX_PER_TURN`, at the start of a turn. */
  async function grown() {
    const { turns, advance } = clocked();
    for (let i = 0; i < 1_100; i++) turns.run(() => {}, false);
    while (turns.queued()) await endOfTurn();
    await endOfTurn();
    expect(turns.budget()).toBe(MAX_PER_TURN);
    return { turns, advance };
  }

  it(`past ${FIRST_PER_TURN} requests, start no more at once in a turn that has lasted 10 ms`, async () => {
    const { turns, advance } = await grown();
    let started = 0;
    // The first 64 take no time, the others 1 ms each: those of the first 10 ms start.
    for (let i = 0; i < 100; i++) turns.run(() => (started++, advance(i < FIRST_PER_TURN ? 0 : 1)), false);
    expect([started, turns.queued(), turns.budget()]).toEqual([FIRST_PER_TURN + 10, 26, FIRST_PER_TURN + 10]);
    await endOfTurn();
    expect(started).toBe(100);
  });

  it('cut the budget to what fitted in 10 ms when the requests a turn started at once took longer', async () => {
    const { turns, advance } = await grown();
    let started = 0;
    // 64 requests of 1 ms each: 10 fit in a turn, and the next batch is no larger.
    for (let i = 0; i < 100; i++) turns.run(() => (started++, advance(1)), false);
    expect([started, turns.queued(), turns.budget()]).toEqual([FIRST_PER_TURN, 36, 10]);
    await endOfTurn();
    expect(started).toBe(FIRST_PER_TURN + 10);
  });
});
