import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import type { Result } from './harness.js';

/**
 * The processes that run the harness's confctl command lines (cli-runner.mjs), each one command
 * at a time: a command line, or a `serve` that holds its runner until it stops. A command runs
 * here unless it must have a process of its own (`ownProcess`); `Sandbox.serve` runs its servers
 * here unless the environment is one node reads at start (`startsWithNode`) or the test asks.
 */

const RUNNER = resolve(__dirname, 'cli-runner.mjs');

interface Reply extends Result {
  id: number;
  leftOpen: string[];
}

/** An environment that node reads as it starts (options, TLS roots, the time zone, the locale): a runner already started cannot honour it. */
export function startsWithNode(env: NodeJS.ProcessEnv): boolean {
  return Object.keys(env).some((k) => /^(NODE_|TZ$|LANG$|LC_)/.test(k) && env[k] !== process.env[k]);
}

/**
 * Command lines that need their own process: a server (`serve`, `webhooks listen`), which keeps
 * running and takes signals from whoever started it (`Sandbox.serve` is the exception, see
 * `serveInRunner`), and an environment node reads as it starts.
 */
export function ownProcess(args: readonly string[], env: NodeJS.ProcessEnv): boolean {
  // Any word, not only the command's: a server run by mistake in a runner would never answer.
  const words = args.filter((a) => !a.startsWith('-')).join(' ');
  return /(^| )(serve|webhooks listen)( |$)/.test(words) || startsWithNode(env);
}

/** What a runner answers about the command it runs. */
type Message = { ready: true } | { id: number; fd: 1 | 2; data: Uint8Array } | { id: number; wantStdin: true } | Reply;

/** A request to a runner (cli-runner.mjs says what each field does). */
interface Request {
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  input?: string;
  cwd?: string;
  stream?: boolean;
}

/** What a streamed command's output and stdin requests go to. */
interface Streaming {
  output(fd: 1 | 2, data: Uint8Array): void;
  wantStdin?(): void;
}

/** The command a runner is running, and who hears of it. */
interface Job extends Partial<Streaming> {
  id: number;
  done(reply: Reply): void;
  /** The runner process ended before the command did (killed, or by a signal the command did not handle). */
  died(code: number | null, signal: NodeJS.Signals | null): void;
}

export class Runner {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;
  private job?: Job;

  constructor() {
    // Node's options as the bin has them (none), not the vitest worker's: its `--conditions
    // development` would resolve packages to their development builds.
    this.child = fork(RUNNER, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    this.ready = new Promise((done, fail) => {
      this.child.once('message', () => done());
      this.child.once('exit', (code) => fail(new Error(`the CLI runner exited ${code} before it was ready`)));
    });
    this.child.on('message', (m: Message) => {
      const job = this.job;
      if ('ready' in m || m.id !== job?.id) return;
      if ('fd' in m) job.output?.(m.fd, m.data);
      else if ('wantStdin' in m) job.wantStdin?.();
      else job.done(m);
    });
    this.child.on('exit', (code, signal) => this.job?.died(code, signal));
    this.idle();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends `request` as `job`'s command; the runner keeps the test file's process alive until `finish()`. */
  async start(job: Job, request: Request): Promise<void> {
    await this.ready;
    this.child.ref();
    this.child.channel?.ref();
    this.job = job;
    this.child.send({ id: job.id, ...request });
  }

  /** The command ended (or its runner did): an idle runner does not keep the test file's process alive, it exits with it (cli-runner.mjs). */
  finish(): void {
    this.job = undefined;
    this.idle();
  }

  async run(id: number, request: Request, streaming?: Streaming): Promise<Result> {
    const what = `confctl ${request.args.join(' ')}`;
    try {
      const reply = await new Promise<Reply>((done, fail) => {
        const died = (code: number | null) => fail(new Error(`the CLI runner exited ${code} running ${what}`));
        this.start({ id, ...streaming, done, died }, { ...request, stream: Boolean(streaming) }).catch(fail);
      });
      if (reply.leftOpen.length) throw new Error(`${what} left ${reply.leftOpen.join(', ')} open: its process would not exit (stderr: ${reply.stderr})`);
      return { code: reply.code, stdout: reply.stdout, stderr: reply.stderr };
    } finally {
      this.finish();
    }
  }

  /** Feeds command `id`'s stdin, if it is still streaming: a chunk, or null at its end. */
  stdin(id: number, data: Uint8Array | null): void {
    if (this.child.connected) this.child.send({ id, stdin: data });
  }

  /** Delivers SIGINT or SIGTERM to command `id` as the process would get it (cli-runner.mjs). */
  signal(id: number, signal: 'SIGINT' | 'SIGTERM'): void {
    if (this.child.connected) this.child.send({ id, signal });
  }

  /** Sends the runner process `signal` (by default SIGTERM, which ends it). */
  kill(signal?: NodeJS.Signals): boolean {
    return this.child.kill(signal);
  }

  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }
}

/**
 * Idle runners, shared by the test files that one vitest worker runs one after another: each
 * file imports this module afresh, and a runner per file and command at once was 58 node
 * starts and bundle loads in the `e2e` tier.
 */
const POOL = Symbol.for('confctl.e2e.cliRunners');
const free: Runner[] = ((globalThis as { [POOL]?: Runner[] })[POOL] ??= []);
let ids = 0;

/** Runs `confctl ARGS` in a runner process, starting one when all are busy. */
export async function runInRunner(args: readonly string[], env: NodeJS.ProcessEnv, input: string): Promise<Result> {
  return withRunner((runner, id) => runner.run(id, { args, env, input }));
}

/** Runs `work` on a free runner (a new one when all are busy); a runner whose command failed is ended. */
export async function withRunner<T>(work: (runner: Runner, id: number) => Promise<T>): Promise<T> {
  const runner = free.pop() ?? new Runner();
  const answer = await work(runner, ++ids).catch((err: unknown) => {
    runner.kill();
    throw err;
  });
  free.push(runner);
  return answer;
}

/** A `serve` in a runner, standing for its process: its exit, and the signals it takes. */
export class RunnerServe extends EventEmitter {
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** What it left open when it stopped, which would have kept its own process from exiting. */
  leftOpen: string[] = [];

  constructor(
    private readonly runner: Runner,
    readonly id: number,
  ) {
    super();
  }

  get pid(): number | undefined {
    return this.runner.pid;
  }

  /**
   * SIGINT and SIGTERM go to the server as its process would get them: to its handler, or, when
   * it has none (a second SIGTERM during a drain), they end the runner. Any other signal goes to
   * the runner process itself, as SIGKILL would end the server's own process.
   */
  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.exitCode !== null || this.signalCode !== null) return false;
    if (signal === 'SIGINT' || signal === 'SIGTERM') this.runner.signal(this.id, signal);
    else this.runner.kill(signal);
    return true;
  }

  ended(code: number | null, signal: NodeJS.Signals | null): void {
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

/**
 * Starts `confctl ARGS` (a `serve`) in a runner; `output` gets what it writes. The runner goes back
 * to the pool once the server stopped and left nothing open; one ended by a signal is gone.
 */
export async function serveInRunner(args: readonly string[], env: NodeJS.ProcessEnv, output: (fd: 1 | 2, data: Uint8Array) => void): Promise<RunnerServe> {
  const runner = free.pop() ?? new Runner();
  const serve = new RunnerServe(runner, ++ids);
  const done = (reply: Reply) => {
    runner.finish();
    if (reply.leftOpen.length) {
      serve.leftOpen = reply.leftOpen;
      runner.kill();
    } else free.push(runner);
    serve.ended(reply.code, null);
  };
  const died = (code: number | null, signal: NodeJS.Signals | null) => {
    runner.finish();
    serve.ended(code, signal);
  };
  await runner.start({ id: serve.id, output, done, died }, { args, env, input: '', stream: true });
  return serve;
}
