/**
 * Rows handed from a worker thread to a synchronous reader (the SQLite loader runs inside one
 * synchronous transaction, so it cannot await a message): the worker posts batches on a
 * MessagePort and counts them in shared memory; the reader sleeps on that count (`Atomics.wait`)
 * and takes each batch with `receiveMessageOnPort`. The worker stays at most AHEAD_BATCHES batches
 * ahead of the reader, which bounds the memory of rows made in advance.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { realMs } from '../../contract/clock.js';

/** Rows per message: about 0.5 MB of users; larger batches cost the reader more to receive. */
export const BATCH_ROWS = 1000;
/** Batches posted and not yet taken before the worker waits. */
export const AHEAD_BATCHES = 16;
/** Longest sleep between two looks at the shared counts (a notify can be missed only at the worker's end). */
const WAIT_MS = 100;
/**
 * How long the reader waits for a batch before it gives up on the worker: one that could not load
 * its module dies before it can mark its end. Making a batch takes milliseconds.
 */
const STALL_MS = 60_000;
/** Slots of a channel's shared counts: batches posted, batches taken, and 1 once the worker has ended. */
const SENT = 0;
const TAKEN = 1;
const ENDED = 2;

/** A batch of rows, or what the worker failed with. */
type Message = { rows: unknown[][] } | { error: string };

/** The worker's end of a channel (sent to it in its `workerData`, the port in the transfer list). */
export interface RowSender {
  port: MessagePort;
  counts: Int32Array;
}

/** A channel: `sender` for the worker, `receive` for the reader. */
export function rowChannel(): { sender: RowSender; receive: (count: number, what: string) => Generator<unknown[]> } {
  const { port1, port2 } = new MessageChannel();
  const counts = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  return { sender: { port: port2, counts }, receive: (count, what) => receive(port1, counts, count, what) };
}

/** Yields `count` rows posted on `port`; throws the worker's error, or when it ended before posting them all. */
function* receive(port: MessagePort, counts: Int32Array, count: number, what: string): Generator<unknown[]> {
  let taken = 0;
  let got = 0;
  try {
    while (got < count) {
      const since = realMs();
      while (Atomics.load(counts, SENT) === taken) {
        if (Atomics.load(counts, ENDED)) throw new Error(`the seed's row worker ended after ${got} of ${count} ${what}`);
        if (realMs() - since > STALL_MS) throw new Error(`the seed's row worker sent no ${what} for ${STALL_MS / 1000} s (after ${got} of ${count})`);
        Atomics.wait(counts, SENT, taken, WAIT_MS);
      }
      const message = receiveMessageOnPort(port)?.message as Message | undefined;
      Atomics.store(counts, TAKEN, ++taken);
      Atomics.notify(counts, TAKEN);
      if (!message) throw new Error(`the seed's row worker counted a batch of ${what} it did not post`);
      if ('error' in message) throw new Error(`the seed's row worker failed: ${message.error}`);
      for (const row of message.rows) {
        if (got++ === count) break;
        yield row;
      }
    }
  } finally {
    port.close();
  }
}

/** Posts `rows` converted by `convert` in batches of BATCH_ROWS, waiting while the reader is AHEAD_BATCHES behind. */
export function sendRows<R>({ port, counts }: RowSender, rows: Iterable<R>, convert: (row: R) => unknown[]): void {
  let batch: unknown[][] = [];
  for (const row of rows) {
    batch.push(convert(row));
    if (batch.length === BATCH_ROWS) {
      post(port, counts, { rows: batch });
      batch = [];
    }
  }
  if (batch.length) post(port, counts, { rows: batch });
}

/** Posts what the worker failed with: the reader throws it. */
export const sendError = ({ port, counts }: RowSender, err: unknown) => post(port, counts, { error: err instanceof Error ? err.message : String(err) });

/** Marks the channel ended (at the worker's exit): a reader still waiting for rows throws. */
export function endRows({ counts }: RowSender): void {
  Atomics.store(counts, ENDED, 1);
  Atomics.notify(counts, SENT);
}

function post(port: MessagePort, counts: Int32Array, message: Message): void {
  const sent = Atomics.load(counts, SENT);
  for (let taken = Atomics.load(counts, TAKEN); sent - taken >= AHEAD_BATCHES; taken = Atomics.load(counts, TAKEN)) Atomics.wait(counts, TAKEN, taken, WAIT_MS);
  port.postMessage(message);
  Atomics.store(counts, SENT, sent + 1);
  Atomics.notify(counts, SENT);
}
