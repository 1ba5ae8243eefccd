import { Readable } from 'node:stream';
import { createClient } from '../../src/client/client.js';
import { type CliContext, createStreams, type Prompter } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/main.js';
import { openProfiles } from '../../src/config/profiles.js';
import { type MockServer, startMockServer } from '../http-mock.js';
import { tempDir } from '../tmp.js';

/**
 * One scripted server per worker process (test/http-mock.ts), shared by the files that run in it
 * (the unit tier does not isolate files, vitest.config.ts), so it is never closed, only unref'd;
 * each fake starts it afresh, as a new MockAgent did. Tests check
 * `f.agent.assertNoPendingInterceptors()` themselves: some script a trap that must stay
 * unrequested (`--dry-run`).
 */
const server = await startMockServer();
server.unref();

export const ORIGIN = server.origin;
export const BASE = `${ORIGIN}/api/public/v2.0`;
export const SECRET = 'sEcReT0123456789abcdefghijklmnopqrstuvwxyzABCDEF';
export const FROZEN = new Date('2026-01-31T09:30:00.000Z');

export interface Fake {
  ctx: CliContext;
  /** The file's scripted server (MockAgent-shaped). */
  agent: MockServer;
  configDir: string;
  stdout: () => string;
  stderr: () => string;
  run: (args: string[]) => Promise<number>;
}

/** A context over fake streams (TTY-ness switchable), a frozen clock, a temp config dir (removed after the file's tests) and the file's scripted server. */
export function fake(opts: { tty?: boolean; stdinTty?: boolean; stdin?: string; env?: Record<string, string>; prompter?: Prompter } = {}): Fake {
  const configDir = tempDir();
  const env = { CONFCTL_CONFIG_DIR: configDir, ...opts.env };
  let out = '';
  let err = '';
  const stdin = Object.assign(Readable.from(opts.stdin === undefined ? [] : [opts.stdin]), { isTTY: opts.stdinTty ?? opts.tty ?? false });
  const streams = createStreams(
    { stdout: { write: (s: string) => (out += s), isTTY: opts.tty ?? false, columns: 100 }, stderr: { write: (s: string) => (err += s) }, stdin },
    env,
  );
  const agent = server;
  agent.reset();
  const ctx: CliContext = {
    streams,
    env,
    now: () => FROZEN,
    config: () => openProfiles({ env }),
    createClient: async (o) => createClient({ ...o, connect: server.connect, sleep: async () => {} }),
    prompter: opts.prompter ?? {
      input: () => Promise.reject(new Error('unexpected prompt')),
      password: () => Promise.reject(new Error('unexpected prompt')),
    },
  };
  return { ctx, agent, configDir, stdout: () => out, stderr: () => err, run: (args) => runCli(args, ctx) };
}

/** A fake with a saved active profile pointing at BASE. */
export async function withProfile(opts: Parameters<typeof fake>[0] = {}): Promise<Fake> {
  const f = fake(opts);
  (await f.ctx.config()).save('acme', { base_url: BASE, key_id: 'ak_test', secret: SECRET }, { activateIfNone: true });
  return f;
}

/** A paginated envelope around `data`. */
export function page<T>(data: T[], o: { current?: number; last?: number; total?: number; next?: string | null } = {}) {
  const current = o.current ?? 1;
  return {
    message: 'OK',
    data,
    current_page: current,
    first_page_url: `${BASE}/x?page_number=1`,
    from: data.length ? 1 : null,
    last_page: o.last ?? 1,
    last_page_url: `${BASE}/x?page_number=${o.last ?? 1}`,
    next_page_url: o.next ?? null,
    path: `${BASE}/x`,
    per_page: 15,
    prev_page_url: null,
    to: data.length || null,
    total: o.total ?? data.length,
  };
}

export const JSON_HEADERS = { headers: { 'content-type': 'application/json; charset=utf-8' } };
export const TEXT_HEADERS = { headers: { 'content-type': 'text/plain; charset=utf-8' } };

export const USERS = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@acme.com', role: 'Admin', department_name: 'R&D', timezone: 'Europe/London', status: 1, created_at: '2026-01-01T00:00:00.000Z', work_hours: null },
  { id: 2, name: 'Grace Hopper', email: 'grace@acme.com', role: 'Member', department_name: null, timezone: null, status: 0, created_at: '2026-01-02T00:00:00.000Z', work_hours: null },
];
