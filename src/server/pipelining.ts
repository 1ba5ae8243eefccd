import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createTurns, FIRST_PER_TURN, MAX_PER_TURN } from './turns.js';

/**
 * Requests of one connection handled at once: the depth of a pipelining benchmark (10), which then
 * runs as it would unpaced (a connection's requests begun together share one read snapshot).
 */
export const MAX_IN_FLIGHT_PER_CONNECTION = 10;
/**
 * Requests of one connection waiting their turn beyond which the connection is no longer read:
 * far beyond the depth of any pipelining client, since a connection that is not read cannot be
 * seen to close until an answer is written to it.
 */
export const MAX_WAITING_PER_CONNECTION = 64;
/**
 * On a store answering over round trips, the requests queued for a later turn, of all connections,
 * from which connections are no longer read until the queue has drained (see `createLanes`),
 * unless the next turn starts more. On a store on the event loop the first queued request holds
 * them.
 */
export const MAX_QUEUED = 64;
/**
 * How long a connection must have had nothing in flight to be read while the others are held: its
 * client is not part of the backlog (a pipelining client is idle between two batches for far less:
 * a round trip). A client sending a request a few hundred ms after its last answer was held behind
 * the whole backlog at 1 s (8.5 s in the pipelined-lists trial of docs/performance.md).
 */
export const FRESH_AFTER_MS = 100;

interface Lane {
  /** Requests in flight, and those about to start. */
  running: number;
  waiting: (() => void)[];
  /** Not read: `MAX_WAITING_PER_CONNECTION` requests wait. */
  paused: boolean;
  /** When `running` last fell to 0 (`now()`). */
  idleSince: number;
}

/** A connection whose requests are no longer answered: closed, half-closed by its client, or refused. */
export const gone = (socket: Socket): boolean => !socket.writable;

/**
 * Paces the pipelined requests of each connection. node:http parses every request that arrives
 * and emits each at once, though it must answer them in order; a client that sends many and reads
 * none would have them all handled, one after another without a pause for any other socket.
 * - A connection's requests are handled in order, `MAX_IN_FLIGHT_PER_CONNECTION` at a time; the
 *   others wait. A request is in flight until its answer has been handed to the socket, so a
 *   client that does not read its answers gets no more work done once the socket's buffers are full.
 * - Requests start through turns of the event loop (see turns.ts), so that a burst of them does
 *   not hold the loop: a new request on another connection is not kept behind the backlog.
 * - With `MAX_WAITING_PER_CONNECTION` requests waiting, the connection is not read until fewer
 *   wait (what one read already brought is parsed whole).
 * - With a request queued for a turn (on a store of round trips, `MAX_QUEUED`, or more if the next
 *   turn starts more: its budget, see turns.ts), no connection is read until the queue has drained,
 *   except those with nothing in flight for `FRESH_AFTER_MS` (a client's fresh request still starts
 *   before the backlog; such a connection is held too once it has brought its requests). What is
 *   not read waits unparsed in the socket, as it would without turns. Parsed, a request and its
 *   response are objects that live until it starts: queued behind hundreds of others they
 *   outlived the young generation's collections, were promoted, and grew the old generation by
 *   some 40 MB under a pipelining benchmark. When SQLite also held at `MAX_QUEUED`, the 64 queued
 *   were most of what each scavenge copied: the collector's instructions per request of the
 *   bench's `GET /users/{id}` were 3.5 times what they are with the hold at the first (see
 *   docs/performance.md).
 * - Turns start at most `FIRST_PER_TURN` requests (`MAX_QUEUED`), or with `roundTrips` (a store
 *   answering over round trips: PostgreSQL) up to `MAX_PER_TURN` while they stay short. There a
 *   request's objects live across its round trips, several turns, whether it queued or not, and a
 *   queue the next turn starts whole is no backlog: holding at `MAX_QUEUED` only paused and
 *   resumed every busy connection turn after turn (the reads let in after each drain queued
 *   again), and split the requests of a turn over more round trips (see docs/performance.md).
 * - Requests of a connection that has gone are dropped unhandled. A client that leaves while its
 *   connection is not read is seen to have gone when an answer is written to it; turns start one
 *   queued request of each connection before a second of any, so it costs one more request, more
 *   only in a turn that starts more requests than there are connections with some queued (its
 *   requests in flight began before the answers written then: up to `MAX_IN_FLIGHT_PER_CONNECTION`
 *   were handled one after another in such a turn).
 */
export function createLanes(now: () => number = () => performance.now(), roundTrips = false, keepAliveMs = 5_000) {
  const lanes = new Map<Socket, Lane>();
  /** Connections not read until the queue of turns has drained. */
  const held = new Set<Socket>();
  // A held connection's keep-alive timer is stopped: its next request may be waiting unread, and
  // node would close the connection under it (the client's ECONNRESET). Released with nothing in
  // flight, the timer runs again (node stops it once it parses a request).
  const hold = (socket: Socket) => {
    if (held.has(socket)) return;
    held.add(socket);
    socket.pause();
    socket.setTimeout(0);
  };
  /** Nothing in flight or waiting. */
  const idle = (lane: Lane | undefined) => !lane || lane.running + lane.waiting.length === 0;
  /** Reads a connection no longer held again, unless it is paused for its own backlog or gone. */
  const readAgain = (socket: Socket) => {
    const lane = lanes.get(socket);
    if (lane?.paused || gone(socket)) return;
    socket.resume();
    if (idle(lane)) socket.setTimeout(keepAliveMs);
  };
  const release = () => {
    for (const socket of held) readAgain(socket);
    held.clear();
  };
  /**
   * Reads again, at the end of a turn at most every FRESH_AFTER_MS, the held connections that have
   * had nothing in flight for that long: their clients wait for an answer, not in the backlog.
   */
  let swept = now();
  const readIdle = () => {
    if (!held.size || now() - swept < FRESH_AFTER_MS) return;
    swept = now();
    for (const socket of held) {
      const lane = lanes.get(socket);
      if (!lane || !idle(lane) || lane.idleSince > swept - FRESH_AFTER_MS) continue;
      held.delete(socket);
      readAgain(socket);
    }
  };
  /** The connection's only request in hand is the one in its turn. */
  const alone = (lane: Lane) => lane.running === 1 && !lane.waiting.length;
  const turns = createTurns(release, now, roundTrips ? MAX_PER_TURN : FIRST_PER_TURN, readIdle, alone);

  const laneOf = (socket: Socket): Lane => {
    let lane = lanes.get(socket);
    if (!lane) {
      const created: Lane = { running: 0, waiting: [], paused: false, idleSince: -Infinity };
      socket.once('close', () => {
        created.waiting.length = 0;
        lanes.delete(socket);
        held.delete(socket);
      });
      // node resumes the socket after each request it parses, and when one is read: pause it again.
      socket.on('resume', () => (created.paused || held.has(socket)) && socket.pause());
      lanes.set(socket, (lane = created));
    }
    return lane;
  };

  /** Requests queued from which connections are held: one, or on a store of round trips more than the next turn starts (and `MAX_QUEUED`). */
  const holdAt = () => (roundTrips ? Math.max(MAX_QUEUED, turns.budget()) : 1);
  /** Holds every connection but the fresh ones once `holdAt()` requests are queued; `socket` too while holding. */
  const holdIfQueued = (socket: Socket) => {
    if (held.size) return hold(socket);
    if (turns.queued() < holdAt()) return;
    const freshSince = now() - FRESH_AFTER_MS;
    for (const [other, lane] of lanes) if (lane.running > 0 || lane.idleSince > freshSince) hold(other);
  };

  /** Takes a slot in flight for `turn` and starts it in its turn. */
  const begin = (socket: Socket, lane: Lane, turn: () => void) => {
    const idle = lane.running === 0;
    lane.running++;
    turns.run(turn, idle, lane);
    holdIfQueued(socket);
  };

  /** Frees a slot in flight. */
  const finished = (lane: Lane) => {
    if (--lane.running === 0) lane.idleSince = now();
  };

  /** Begins the connection's next waiting requests while it has slots in flight. */
  const next = (socket: Socket, lane: Lane) => {
    if (gone(socket)) lane.waiting.length = 0;
    while (lane.running < MAX_IN_FLIGHT_PER_CONNECTION && lane.waiting.length) begin(socket, lane, lane.waiting.shift()!);
    if (lane.paused && !gone(socket) && lane.waiting.length < MAX_WAITING_PER_CONNECTION) {
      lane.paused = false;
      socket.resume();
    }
  };

  /**
   * Runs a request whose slot in flight is taken, unless its connection has gone meanwhile; frees
   * the slot when its answer has been handed over (`close` follows `finish`).
   */
  const start = (socket: Socket, lane: Lane, res: ServerResponse, handle: () => void) => {
    if (gone(socket)) {
      finished(lane);
      lane.waiting.length = 0;
      return;
    }
    res.on('close', () => {
      // node armed the keep-alive timer as the answer finished: stopped again while held (see `hold`).
      if (held.has(socket)) socket.setTimeout(0);
      finished(lane);
      next(socket, lane);
    });
    handle();
  };

  return {
    /** Calls `handle` for the request whose answer is `res` in its turn; never once the connection has gone. */
    enqueue(socket: Socket, res: ServerResponse, handle: () => void): void {
      if (gone(socket)) return;
      const lane = laneOf(socket);
      const turn = () => start(socket, lane, res, handle);
      if (lane.running < MAX_IN_FLIGHT_PER_CONNECTION && !lane.waiting.length) return begin(socket, lane, turn);
      lane.waiting.push(turn);
      if (lane.waiting.length >= MAX_WAITING_PER_CONNECTION) {
        lane.paused = true;
        socket.pause();
      }
    },
    /** A connection was accepted (see `createTurns`). */
    connected: (): void => turns.connected(),
    /** True while a request of this connection is in flight or waiting. */
    hasRequest(socket: Socket): boolean {
      const lane = lanes.get(socket);
      return lane !== undefined && lane.running + lane.waiting.length > 0;
    },
  };
}
