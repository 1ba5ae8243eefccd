import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../pg/database.js';
import { ownProcess, runInRunner, serveInRunner, startsWithNode } from './cli-runners.js';
import type { DataStore } from '../../src/store/port.js';

/**
 * The built CLI: e2e tests run what users run (`npm test` builds first). `Sandbox.run`,
 * `Sandbox.serve` and the manual's shells run a command line in a runner process that loads the
 * built bundle once (cli-runners.ts); an environment node reads at start, and a server that a
 * shell starts, get a process of their own.
 */
export const BIN = resolve(__dirname, '../../bin/confctl.js');

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** A running `serve`: its own process, or one in a CLI runner that stands for it (cli-runners.ts). */
export interface ServeProcess {
  readonly pid?: number;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

/** The stores `serve` runs on: the e2e files that run against both are a `describe.each(BACKENDS)`. */
export type Backend = 'sqlite' | 'postgres';
export const BACKENDS: readonly Backend[] = ['sqlite', 'postgres'];

/**
 * A scratch environment: its own config directory (profiles) and data directory, and with the
 * `postgres` backend its own database on the run's PostgreSQL (created by the first `serve`, or
 * by `useDatabase()`), which every command then gets as `CONFCTL_DATABASE_URL`.
 */
export class Sandbox {
  constructor(readonly backend: Backend = 'sqlite') {}
  private database?: TestDatabase;
  readonly root = mkdtempSync(join(tmpdir(), 'confctl-e2e-'));
  readonly configDir = join(this.root, 'config');
  readonly dataDir = join(this.root, 'data');
  private children: ServeProcess[] = [];
  /** Servers that stopped holding something that would have kept their own process from exiting. */
  private readonly stuck: string[] = [];

  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, CONFCTL_CONFIG_DIR: this.configDir, CONFCTL_DATA: this.dataDir, NO_COLOR: '1', ...extra };
    if (this.database && !('CONFCTL_DATABASE_URL' in extra)) env.CONFCTL_DATABASE_URL = this.database.url;
    for (const k of ['CONFCTL_DATABASE_URL', 'CONFCTL_PROFILE', 'CONFCTL_BASE_URL', 'CONFCTL_DOMAIN', 'CONFCTL_KEY_ID', 'CONFCTL_KEY_SECRET', 'CONFCTL_OUTPUT', 'FORCE_COLOR']) {
      if (!(k in extra) && !(k === 'CONFCTL_DATABASE_URL' && this.database)) delete env[k];
    }
    return env;
  }

  /**
   * Runs `confctl ARGS` with no terminal and answers its exit code and output (a `postgres`
   * sandbox's database made first): in a CLI runner (cli-runners.ts), unless it needs a process of its own.
   */
  async run(args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<Result> {
    await this.useDatabase();
    const env = this.env(options.env);
    if (!ownProcess(args, env)) return runInRunner(args, env, options.input ?? '');
    return this.spawnBin(args, env, options.input ?? '');
  }

  /** Runs `confctl ARGS` as a process of its own, as a shell does. */
  async spawnBin(args: string[], env: NodeJS.ProcessEnv, input: string): Promise<Result> {
    return new Promise((done, fail) => {
      const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', fail);
      child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(input);
    });
  }

  /** Runs a command that must succeed and prints JSON; answers the parsed output. */
  async json<T = any>(args: string[], options: { env?: Record<string, string> } = {}): Promise<T> {
    const r = await this.run([...args, '-o', 'json'], options);
    if (r.code !== 0) throw new Error(`confctl ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  }

  /** The `postgres` sandbox's database URL, creating the database on first use; undefined for `sqlite`. */
  async useDatabase(): Promise<string | undefined> {
    if (this.backend === 'postgres') this.database ??= await createTestDatabase();
    return this.database?.url;
  }

  /**
   * The sandbox's store as `serve` uses it, to check what was stored; close it after use. The
   * adapters are imported here, not with the harness: most e2e files never open a store, and each
   * file imports afresh (about half a second of a worker for both adapters).
   */
  async openStore(): Promise<DataStore> {
    const url = await this.useDatabase();
    if (url) return (await import('../../src/store/postgres/index.js')).openPostgresStore(url);
    return (await import('../../src/store/sqlite/index.js')).openStore(join(this.dataDir, 'confctl.db'));
  }

  /**
   * Starts `confctl serve` on a free port (`env` added to the sandbox's); answers the base URL once
   * it listens, its output so far (stdout and stderr as they came) and its process. It runs in a
   * CLI runner unless `ownProcess` is asked (a test of the process itself, e.g. its command line)
   * or the environment is one node reads at start.
   */
  async serve(args: string[] = [], options: { env?: Record<string, string>; ownProcess?: boolean } = {}): Promise<{ baseUrl: string; child: ServeProcess; output: () => string }> {
    await this.useDatabase();
    const env = this.env(options.env);
    const argv = ['serve', '--port', '0', '--log', 'off', ...args];
    let out = '';
    let listening!: (baseUrl: string) => void;
    const listens = new Promise<string>((resolve) => (listening = resolve));
    const append = (data: Uint8Array) => {
      out += Buffer.from(data).toString();
      const m = /Listening on (\S+)/.exec(out);
      if (m) listening(m[1]);
    };
    let child: ServeProcess;
    if (options.ownProcess || startsWithNode(env)) {
      const own = spawn(process.execPath, [BIN, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      own.stdout.on('data', append);
      own.stderr.on('data', append);
      child = own;
    } else {
      const inRunner = await serveInRunner(argv, env, (_fd, data) => append(data));
      inRunner.once('exit', () => {
        if (inRunner.leftOpen.length) this.stuck.push(`serve ${args.join(' ')} left ${inRunner.leftOpen.join(', ')} open`);
      });
      child = inRunner;
    }
    this.children.push(child);
    return new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`serve did not start: ${out}`)), 20_000);
      void listens.then((baseUrl) => {
        clearTimeout(timer);
        done({ baseUrl, child, output: () => out });
      });
      child.on('exit', (code) => fail(new Error(`serve exited ${code}: ${out}`)));
    });
  }

  /**
   * Stops servers (SIGTERM, waiting for a graceful exit) and removes the scratch directory; fails
   * if a server stopped leaving open what would have kept its own process from exiting.
   */
  async dispose(): Promise<void> {
    await Promise.all(
      this.children
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map((c) => new Promise<void>((done) => {
          c.once('exit', () => done());
          c.kill('SIGTERM');
        })),
    );
    rmSync(this.root, { recursive: true, force: true });
    await this.database?.drop();
    if (this.stuck.length) throw new Error(this.stuck.join('; '));
  }
}
