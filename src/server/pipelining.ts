import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Requests of one connection handled at once. */
export const MAX_IN_FLIGHT_PER_CONNECTION = 1;
/**
 * Requests of one connection waiting their turn beyond which the connection is no longer read:
 * far beyond the depth of any pipelining client (a benchmark's 10), since a connection that is
 * not read cannot be seen to close until an answer is written to it.
 */
export const MAX_WAITING_PER_CONNECTION = 64;

interface Lane {
  running: number;
  waiting: (() => void)[];
  paused: boolean;
}

/** A connection whose requests are no longer answered: closed, half-closed by its client, or refused. */
export const gone = (socket: Socket): boolean => !socket.writable;

/**
 * Paces the pipelined requests of each connection. node:http parses every request that arrives
 * and emits each at once, though it must answer them in order; a client that sends many and reads
 * none would have them all handled. Here a request is handled only while fewer than
 * `MAX_IN_FLIGHT_PER_CONNECTION` of its connection's requests are in flight; a request is in
 * flight until its answer has been handed to the socket, so a client that does not read its
 * answers gets no more work done once the socket's buffers are full. With
 * `MAX_WAITING_PER_CONNECTION` requests waiting, the connection is not read until fewer wait (what
 * one read already brought is parsed whole). Waiting requests of a connection that has gone are
 * dropped unhandled; a client that leaves while its connection is not read is seen to have gone
 * when an answer is written to it, so at most one more of its requests is handled.
 */
export function createLanes() {
  const lanes = new WeakMap<Socket, Lane>();

  const laneOf = (socket: Socket): Lane => {
    let lane = lanes.get(socket);
    if (!lane) {
      const created: Lane = { running: 0, waiting: [], paused: false };
      socket.once('close', () => (created.waiting.length = 0));
      // node resumes the socket after each request it parses, and when one is read: pause it again.
      socket.on('resume', () => created.paused && socket.pause());
      lanes.set(socket, (lane = created));
    }
    return lane;
  };

  const next = (socket: Socket, lane: Lane) => {
    if (gone(socket)) lane.waiting.length = 0;
    while (lane.running < MAX_IN_FLIGHT_PER_CONNECTION && lane.waiting.length) lane.waiting.shift()!();
    if (lane.paused && !gone(socket) && lane.waiting.length < MAX_WAITING_PER_CONNECTION) {
      lane.paused = false;
      socket.resume();
    }
  };

  const start = (socket: Socket, lane: Lane, res: ServerResponse, handle: () => void) => {
    lane.running++;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      lane.running--;
      next(socket, lane);
    };
    res.once('finish', release);
    res.once('close', release);
    handle();
  };

  return {
    /** Calls `handle` for the request whose answer is `res` now, or when its connection's turn comes; never once the connection has gone. */
    enqueue(socket: Socket, res: ServerResponse, handle: () => void): void {
      if (gone(socket)) return;
      const lane = laneOf(socket);
      if (lane.running < MAX_IN_FLIGHT_PER_CONNECTION) return start(socket, lane, res, handle);
      lane.waiting.push(() => start(socket, lane, res, handle));
      if (lane.waiting.length >= MAX_WAITING_PER_CONNECTION) {
        lane.paused = true;
        socket.pause();
      }
    },
    /** True while a request of this connection is in flight or waiting. */
    hasRequest(socket: Socket): boolean {
      const lane = lanes.get(socket);
      return lane !== undefined && lane.running + lane.waiting.length > 0;
    },
  };
}
