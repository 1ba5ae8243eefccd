import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLanes, FRESH_AFTER_MS, MAX_IN_FLIGHT_PER_CONNECTION, MAX_QUEUED } from '../../src/server/pipelining.js';

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

/** What the lanes use of a socket: pausing as node:http's (`resume` is emitted on the next tick, and may be paused again then). */
class FakeSocket extends EventEmitter {
  writable = true;
  private paused = false;
  pause() {
    this.paused = true;
    return this;
  }
  resume() {
    this.paused = false;
    process.nextTick(() => this.emit('resume'));
    return this;
  }
  isPaused() {
    return this.paused;
  }
  /** The keep-alive timer node would arm (ms; 0: stopped). */
  timeout: number | undefined;
  setTimeout(ms: number) {
    this.timeout = ms;
    return this;
  }
}

/** Lanes on a manual clock, and requests whose answers are handed over when the test says. */
function setup(roundTrips = false) {
  let clock = 0;
  const lanes = createLanes(() => clock, roundTrips);
  const started: string[] = [];
  const answers = new Map<string, EventEmitter>();
  const send = (socket: FakeSocket, name: string) => {
    const res = new EventEmitter();
    answers.set(name, res);
    lanes.enqueue(socket as unknown as Socket, res as unknown as ServerResponse, () => started.push(name));
  };
  const answer = (name: string) => answers.get(name)!.emit('close');
  return { started, send, answer, advance: (ms: number) => (clock += ms) };
}

/** `count` connections each sending `MAX_IN_FLIGHT_PER_CONNECTION` requests in one synchronous run (one read each). */
function pipeliners(send: (socket: FakeSocket, name: string) => void, count: number): FakeSocket[] {
  const sockets = Array.from({ length: count }, () => new FakeSocket());
  sockets.forEach((socket, s) => {
    for (let i = 0; i < MAX_IN_FLIGHT_PER_CONNECTION; i++) send(socket, `c${s}.${i}`);
  });
  return sockets;
}

/** The index of the connection that sent the request `c{index}.{n}`. */
const connectionOf = (name: string) => Number(name.slice(1, name.indexOf('.')));

describe('lanes', () => {
  it(`stop reading connections while requests are queued for a turn, but one idle for ${FRESH_AFTER_MS} ms, and read them again once the queue has drained`, async () => {
    expect([MAX_QUEUED, FRESH_AFTER_MS]).toEqual([64, 100]);
    const { started, send, answer, advance } = setup();
    const quiet = new FakeSocket();
    send(quiet, 'quiet.0');
    answer('quiet.0');
    advance(FRESH_AFTER_MS);
    const recent = new FakeSocket();
    send(recent, 'recent.0');
    answer('recent.0');
    advance(FRESH_AFTER_MS - 1);
    await endOfTurn();
    // 130 requests: 64 start in this turn, 66 queue; the first queued stops the reading.
    const busy = pipeliners(send, 13);
    expect(started).toHaveLength(2 + 64);
    expect(busy.map((s) => s.isPaused())).toEqual(Array(13).fill(true));
    expect([recent.isPaused(), quiet.isPaused()]).toEqual([true, false]);
    // A held connection's keep-alive timer is stopped: node would close it under its unread request.
    expect([recent.timeout, ...busy.map((s) => s.timeout)]).toEqual(Array(14).fill(0));

    send(quiet, 'quiet.1');
    expect(quiet.isPaused()).toBe(true); // it brought its request: held too
    await endOfTurn();
    // The request of an idle connection first (quiet's; the pipeliners' first requests came with
    // their others), then one request per connection in turn.
    expect(started.slice(66, 81)).toEqual(['quiet.1', 'c6.4', 'c7.0', 'c8.0', 'c9.0', 'c10.0', 'c11.0', 'c12.0', 'c6.5', 'c7.1', 'c8.1', 'c9.1', 'c10.1', 'c11.1', 'c12.1']);
    expect(started).toHaveLength(130);
    expect([...busy, recent, quiet].every((s) => s.isPaused())).toBe(true);
    quiet.setTimeout(5_000); // node arms the keep-alive timer as an answer finishes
    answer('quiet.1');
    expect(quiet.timeout).toBe(0); // stopped again while held

    await endOfTurn(); // the queue drains: every connection is read again
    expect(started).toHaveLength(133);
    await new Promise((resolve) => process.nextTick(resolve));
    expect([...busy, recent, quiet].some((s) => s.isPaused())).toBe(false);
    // Released with nothing in flight, its timer runs again; the others' run again after their answers.
    expect([recent.timeout, quiet.timeout, busy[0].timeout]).toEqual([5_000, 5_000, 0]);
  });

  it('start a fresh connection’s request before the queued first requests of connections that pipelined many', async () => {
    const { started, send } = setup();
    // 20 connections each pipeline 50 lists, parsed from one read each: 64 start, the rest queue.
    const flood = Array.from({ length: 20 }, () => new FakeSocket());
    flood.forEach((socket, s) => {
      for (let i = 0; i < 50; i++) send(socket, `c${s}.${i}`);
    });
    send(new FakeSocket(), 'fresh');
    expect(started).toHaveLength(64);
    await endOfTurn();
    expect(started[64]).toBe('fresh');
  });

  it('start one queued request of each connection before a second of any: a client gone unseen costs one more at most', async () => {
    const { started, send } = setup();
    const sockets = pipeliners(send, 70); // 64 start, 636 queue
    await endOfTurn(); // 64 more, one of each connection with requests queued
    // The clients go. Their sockets are held, not read: each is seen to have gone once an answer is written to it.
    const since = started.length;
    for (let seen = since; ; seen = started.length) {
      await endOfTurn();
      if (started.length === seen) break;
      for (const name of started.slice(seen)) sockets[connectionOf(name)].writable = false;
    }
    const after = started.slice(since).map(connectionOf);
    expect(after).toHaveLength(64);
    expect(new Set(after).size).toBe(64);
  });

  it('start one request of a connection accepted in this turn, the others of its pipeline in later turns', async () => {
    const lanes = createLanes(() => 0);
    const started: string[] = [];
    const socket = new FakeSocket();
    lanes.connected();
    for (let i = 0; i < 3; i++) lanes.enqueue(socket as unknown as Socket, new EventEmitter() as unknown as ServerResponse, () => started.push(`r${i}`));
    expect(started).toEqual(['r0']);
    await endOfTurn();
    expect(started).toEqual(['r0', 'r1']);
    await endOfTurn();
    expect(started).toEqual(['r0', 'r1', 'r2']);
  });

  it(`read again a held connection that has had nothing in flight for ${FRESH_AFTER_MS} ms, though the queue has not drained`, async () => {
    const { send, answer, advance } = setup();
    const client = new FakeSocket();
    send(client, 'client.0');
    const busy = pipeliners(send, 30); // 63 more start, 237 queue: every connection in flight is held
    expect([client, ...busy].every((s) => s.isPaused())).toBe(true);
    answer('client.0');
    advance(FRESH_AFTER_MS - 1);
    await endOfTurn(); // 64 start, the queue is not drained; idle for less than FRESH_AFTER_MS, the client stays held
    expect(client.isPaused()).toBe(true);
    advance(1);
    await endOfTurn();
    expect(client.isPaused()).toBe(false);
    expect(client.timeout).toBe(5_000);
    expect(busy.every((s) => s.isPaused())).toBe(true);
  });

  it('on a store on the event loop, read every connection while no request is queued, and hold them from the first queued', async () => {
    const { started, send } = setup();
    const sockets = pipeliners(send, 6); // 60 requests: all start
    expect(started).toHaveLength(60);
    expect(sockets.some((s) => s.isPaused())).toBe(false);
    const late = pipeliners(send, 1); // 10 more: 4 start, 6 queue
    expect(started).toHaveLength(64);
    expect([...sockets, ...late].every((s) => s.isPaused())).toBe(true);
    await endOfTurn();
    expect(started).toHaveLength(70);
    await new Promise((resolve) => process.nextTick(resolve));
    expect([...sockets, ...late].some((s) => s.isPaused())).toBe(false);
  });

  it(`on a store of round trips, read every connection while fewer than ${MAX_QUEUED} requests are queued`, async () => {
    const { started, send } = setup(true);
    const sockets = pipeliners(send, 12); // 120 requests: 64 start, 56 queue
    expect(started).toHaveLength(64);
    expect(sockets.some((s) => s.isPaused())).toBe(false);
    await endOfTurn();
    expect(started).toHaveLength(120);
  });

  it(`on a store of round trips, read every connection while the next turn starts every queued request, though ${MAX_QUEUED} or more are queued`, async () => {
    const { started, send, answer } = setup(true);
    // 1,100 requests: 64 start at once, and queued batches that follow one another at once
    // (the manual clock stands still) double the budget of a turn to 512.
    const first = pipeliners(send, 110);
    expect(first.every((s) => s.isPaused())).toBe(true);
    while (started.length < 1_100) await endOfTurn();
    started.forEach(answer);
    await endOfTurn();
    await new Promise((resolve) => process.nextTick(resolve));
    expect(first.some((s) => s.isPaused())).toBe(false);
    // 600 more: 512 start in this turn and 88 queue, all of which the next turn starts.
    const second = pipeliners(send, 60);
    expect(started).toHaveLength(1_612);
    expect(second.some((s) => s.isPaused())).toBe(false);
    await endOfTurn();
    expect(started).toHaveLength(1_700);
  });

  it(`on a store on the event loop, start at most ${MAX_QUEUED} requests a turn, however fast turns are`, async () => {
    const { started, send } = setup();
    pipeliners(send, 110);
    const batches = [started.length];
    while (started.length < 1_100) {
      const before = started.length;
      await endOfTurn();
      batches.push(started.length - before);
    }
    expect(new Set(batches)).toEqual(new Set([64, 12])); // 17 turns of 64, then the last 12
  });

  it('do not read again a held connection that has too many requests waiting of its own', async () => {
    const { started, send } = setup();
    const sockets = pipeliners(send, 13);
    const flooding = sockets[0];
    for (let i = 0; i < 64; i++) send(flooding, `flood.${i}`); // beyond its 10 in flight: waiting
    await endOfTurn();
    await endOfTurn();
    expect(started).toHaveLength(130);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(flooding.isPaused()).toBe(true);
    expect(sockets.slice(1).some((s) => s.isPaused())).toBe(false);
  });
});
