import { type ChildProcess, fork } from 'node:child_process';
import { resolve } from 'node:path';
import type { Result } from './harness.js';

/**
 * The processes that run the harness's confctl command lines (cli-runner.mjs): as many as have
 * run at once in this test file, each running one command at a time. A command runs here unless
 * it must have a process of its own (`ownProcess`).
 */

const RUNNER = resolve(__dirname, 'cli-runner.mjs');

interface Reply extends Result {
  id: number;
  leftOpen: string[];
}

/**
 * Command lines that need their own process: a server (`serve`, `webhooks listen`), which keeps
 * running and takes signals, and an environment that node reads as it starts (options, TLS roots,
 * the time zone, the locale).
 */
export function ownProcess(args: readonly string[], env: NodeJS.ProcessEnv): boolean {
  // Any word, not only the command's: a server run by mistake in a runner would never answer.
  const words = args.filter((a) => !a.startsWith('-')).join(' ');
  if (/(^| )(serve|webhooks listen)( |$)/.test(words)) return true;
  return Object.keys(env).some((k) => /^(NODE_|TZ$|LANG$|LC_)/.test(k) && env[k] !== process.env[k]);
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
  wantStdin(): void;
}

export class Runner {
  private readonly child: ChildProcess;
  private readonly ready: Promise<void>;
  private waiting?: (reply: Reply) => void;
  private streaming?: Streaming;

  constructor() {
    this.child = fork(RUNNER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    this.ready = new Promise((done, fail) => {
      this.child.once('message', () => done());
      this.child.once('exit', (code) => fail(new Error(`the CLI runner exited ${code} before it was ready`)));
    });
    this.child.on('message', (m: Message) => {
      if ('fd' in m) this.streaming?.output(m.fd, m.data);
      else if ('wantStdin' in m) this.streaming?.wantStdin();
      else if ('code' in m) this.waiting?.(m);
    });
    this.idle();
  }

  async run(id: number, request: Request, streaming?: Streaming): Promise<Result> {
    await this.ready;
    this.child.ref();
    this.child.channel?.ref();
    this.streaming = streaming;
    const what = `confctl ${request.args.join(' ')}`;
    try {
      const reply = await new Promise<Reply>((done, fail) => {
        this.waiting = done;
        this.child.once('exit', (code) => fail(new Error(`the CLI runner exited ${code} running ${what}`)));
        this.child.send({ id, ...request, stream: Boolean(streaming) });
      });
      if (reply.leftOpen.length) throw new Error(`${what} left ${reply.leftOpen.join(', ')} open: its process would not exit (stderr: ${reply.stderr})`);
      return { code: reply.code, stdout: reply.stdout, stderr: reply.stderr };
    } finally {
      this.child.removeAllListeners('exit');
      this.streaming = undefined;
      this.idle();
    }
  }

  /** Feeds command `id`'s stdin, if it is still streaming: a chunk, or null at its end. */
  stdin(id: number, data: Uint8Array | null): void {
    if (this.child.connected) this.child.send({ id, stdin: data });
  }

  /** Ends a runner that failed: a command left it holding something, or it exited. */
  stop(): void {
    this.child.kill();
  }

  /** An idle runner does not keep the test file's process alive; it exits with it (cli-runner.mjs). */
  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }
}

const free: Runner[] = [];
let ids = 0;

/** Runs `confctl ARGS` in a runner process, starting one when all are busy. */
export async function runInRunner(args: readonly string[], env: NodeJS.ProcessEnv, input: string): Promise<Result> {
  return withRunner((runner, id) => runner.run(id, { args, env, input }));
}

/** Runs `work` on a free runner (a new one when all are busy); a runner whose command failed is ended. */
export async function withRunner<T>(work: (runner: Runner, id: number) => Promise<T>): Promise<T> {
  const runner = free.pop() ?? new Runner();
  const answer = await work(runner, ++ids).catch((err: unknown) => {
    runner.stop();
    throw err;
  });
  free.push(runner);
  return answer;
}
