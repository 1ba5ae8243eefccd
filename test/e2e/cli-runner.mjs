// @ts-check
/**
 * A process that runs confctl command lines one after another, for the end-to-end harness
 * (cli-runners.ts): the built bundle's own `runCli` with the production context over the given
 * environment, working directory, stdin and output, as bin/confctl.js runs it, without a new node
 * and a fresh load of the bundle for every command (about 150 of a client command's 160 ms of CPU).
 *
 * A request either carries its stdin and gets its output whole at the end, or (`stream`) gets its
 * output as it is written and, unless it carries its stdin, asks for stdin when the command first
 * reads it, as a process that never reads its stdin leaves it to the next command of a shell script.
 * A `signal` message delivers SIGINT or SIGTERM to the running command as its own process would
 * get it: to the handlers it installed, or, with none, by ending this process with that signal.
 *
 * A command must leave nothing behind that would keep its own process from exiting: after each
 * one, this waits until the event loop holds no more than it held before, and reports what stayed.
 */
import { Readable } from 'node:stream';

/** How long a finished command's handles may take to close (a worker ending, a socket closing). */
const SETTLE_MS = 5_000;

/** @type {{ runCli: (args: string[], ctx: unknown) => Promise<number>; processContext: (io: unknown, env: Record<string, string>) => unknown }} */
const bundle = await import(new URL('../../dist/bundle/main.js', import.meta.url).href);

// Node makes the process's stdout and stderr on first use (a library asking the terminal's width),
// and they stay open: made before any command, they are not counted as what one left open.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

/** What keeps the event loop alive, counted by kind. */
function resources() {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/**
 * The kinds that `now` holds more of than `before`.
 * @param {Map<string, number>} before
 * @param {Map<string, number>} now
 */
function extra(before, now) {
  return [...now].filter(([kind, n]) => n > (before.get(kind) ?? 0)).map(([kind, n]) => `${kind} x${n - (before.get(kind) ?? 0)}`);
}

/** The process's signal handlers, by signal. */
function signalHandlers() {
  const signals = /** @type {NodeJS.Signals[]} */ (process.eventNames().filter((name) => typeof name === 'string' && name.startsWith('SIG')));
  return new Map(signals.map((signal) => [signal, process.listeners(signal)]));
}

/**
 * Removes the signal handlers added since `before`: a library's exit hooks (conf's atomic writes
 * hook every signal as they are loaded) stay for good, and the next command would take a signal
 * through them, unlike in a process of its own, which starts without them.
 * @param {Map<NodeJS.Signals, Function[]>} before
 */
function dropSignalHandlers(before) {
  for (const [signal, listeners] of signalHandlers()) {
    const kept = before.get(signal) ?? [];
    for (const listener of listeners) if (!kept.includes(listener)) process.removeListener(signal, /** @type {NodeJS.SignalsListener} */ (listener));
  }
}

/**
 * Waits until the event loop holds no more than `before`; answers what stayed after SETTLE_MS.
 * @param {Map<string, number>} before
 */
async function settle(before) {
  const until = performance.now() + SETTLE_MS;
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    const left = extra(before, resources());
    if (left.length === 0 || performance.now() > until) return left;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Output written to one stream: kept as the bytes a pipe would carry, or sent on as written.
 * @param {((data: Buffer) => void) | undefined} send
 */
function sink(send) {
  /** @type {Buffer[]} */
  const chunks = [];
  return {
    write: (/** @type {string | Uint8Array} */ chunk) => {
      const data = Buffer.from(chunk);
      if (send) send(data);
      else chunks.push(data);
      return true;
    },
    text: () => Buffer.concat(chunks).toString(),
  };
}

/** @param {unknown} message */
const send = (message) => process.send?.(message);

/**
 * The command being streamed and its stdin, which the harness feeds once it was asked for.
 * @type {{ id: number; stdin: Readable } | undefined}
 */
let streamed;

/** The command running now. @type {number | undefined} */
let running;

/**
 * @param {number} id
 * @param {'SIGINT' | 'SIGTERM'} signal
 */
function deliver(id, signal) {
  if (id !== running) return;
  if (process.listenerCount(signal) > 0) process.emit(signal, signal);
  else process.kill(process.pid, signal);
}

/** @param {{ id: number; args: string[]; env: Record<string, string>; input?: string; cwd?: string; stream?: boolean }} request */
async function run({ id, args, env, input, cwd, stream }) {
  const before = resources();
  const handlers = signalHandlers();
  const stdout = sink(stream ? (data) => send({ id, fd: 1, data }) : undefined);
  const stderr = sink(stream ? (data) => send({ id, fd: 2, data }) : undefined);
  let asked = false;
  const stdin = stream && input === undefined
    ? new Readable({
        read() {
          if (!asked) send({ id, wantStdin: true });
          asked = true;
        },
      })
    : Readable.from(input ? [Buffer.from(input)] : []);
  streamed = stream ? { id, stdin } : undefined;
  running = id;
  const home = process.cwd();
  let code;
  try {
    if (cwd) process.chdir(cwd);
    code = await bundle.runCli(args, bundle.processContext({ stdout, stderr, stdin }, env));
  } catch (err) {
    stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    code = 1;
  } finally {
    process.chdir(home);
    streamed = undefined;
    running = undefined;
  }
  const leftOpen = await settle(before);
  dropSignalHandlers(handlers);
  send({ id, code, stdout: stdout.text(), stderr: stderr.text(), leftOpen });
}

let queue = Promise.resolve();
process.on('message', (/** @type {any} */ message) => {
  if ('stdin' in message) {
    const to = streamed;
    if (to && to.id === message.id) to.stdin.push(message.stdin === null ? null : Buffer.from(message.stdin));
  } else if ('signal' in message) deliver(message.id, message.signal);
  else queue = queue.then(() => run(message));
});
// The harness's process ended: so does this one.
process.on('disconnect', () => process.exit(0));
send({ ready: true });
