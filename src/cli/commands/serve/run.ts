import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { initFirstTenant } from '../../../local/init.js';
import { dataDirLayout, resolveDataDir } from '../../../local/data-dir.js';
import { openLocal } from '../../../local/open.js';
import { closeGracefully, createServer } from '../../../server/index.js';
import type { CliContext } from '../../context.js';
import { baseUrlFor, listenError } from '../listen-address.js';
import { type DemoSummary, seedDemo } from '../../../admin/seed/index.js';
import { consentToLocalProfile, type LocalProfileChoice, saveLocalProfile } from '../local-profile.js';
import type { ConnectionFlags } from './connections.js';
import type { DataStore } from '../../../store/port.js';
import type { TenantRecord } from '../../../store/types.js';
import type { CreatedKey } from '../../../local/init.js';
import { retryDelaysFrom, serveLog, startWebhookSender } from './webhooks.js';
import { keepHeapSmall } from './memory.js';
import { claimPidFile, removePidFile, writePidFile } from './pid-file.js';
import { chooseDatabase } from '../database-choice.js';
import { type ClockMode, installClock } from './clock.js';
import { controlToken, controlsLine, type TestControlFlags } from './test-controls.js';

/** Parsed flags of `confctl serve`. */
export interface ServeOptions {
  port: number;
  host: string;
  data?: string;
  /** `--database`: a PostgreSQL URL; without it (and without CONFCTL_DATABASE_URL) the SQLite data directory. */
  database?: string;
  /** `--media`: the recording files' directory (shared by instances on one database). */
  media?: string;
  demo: boolean;
  rateLimit: { client: number; tenant: number } | null;
  maxAttendees: number;
  trustProxy: boolean;
  /** Where the first key is saved (`--profile-name`, `--force`); null with `--no-profile`. */
  profile: LocalProfileChoice | null;
  log: 'json' | 'pretty' | 'off';
  /** Timeouts and connection caps, passed to the server as they are. */
  connections: ConnectionFlags;
  /** Apply the hosted service's complete-body rules. */
  strict: boolean;
  /** Browser origins allowed to call the server (CORS); empty: none. */
  cors: string[];
  /** `--pid-file`: where the process id is written while serving. */
  pidFile?: string;
  /** `--test-controls` (with `--control-token-file`); null without. */
  testControls: TestControlFlags | null;
  /** `--clock`: the real clock, or the manual clock that `confctl admin clock` moves. */
  clock: ClockMode;
}

/** What `--demo` did: loaded the data set, or left the tenant alone because it already had it. */
export function demoMessage(demo: DemoSummary): string {
  if (demo.skipped) return 'Demo data already present: nothing was added.';
  return `Demo data loaded: ${demo.users} users, ${demo.customers} customers, ${demo.conferences} conferences, ${demo.recordings} recordings.`;
}

/** What `serve` serves from: the store, its signing secret, media and what opening it did. */
interface Opened {
  store: DataStore;
  signingSecret: string;
  mediaDir: string;
  /** Where the data is, fit to print (a directory, or a database URL with its password masked). */
  where: string;
  created?: { tenant: TenantRecord; key: CreatedKey };
  /** Another instance created the tenant while this one started (PostgreSQL): its key was printed there. */
  createdElsewhere?: boolean;
  demo?: DemoSummary;
  /** Background work that runs while serving (webhook delivery), woken by a move of the manual clock; stopped before the store closes. */
  start(): { stop(): Promise<void>; wake(): void };
}

/** Opens (and on first use initialises) the SQLite data directory, seeding demo data on request. */
async function openLocalService(options: ServeOptions, ctx: CliContext): Promise<Opened> {
  const env = ctx.env as NodeJS.ProcessEnv;
  // A new directory (no database yet): the profile is settled before anything is created.
  const fresh = !existsSync(dataDirLayout(resolveDataDir(options.data, env)).database);
  if (options.profile && fresh) await consentToLocalProfile(ctx, undefined, options.profile);
  const local = openLocal(options.data, env, serveLog(options.log, (text) => ctx.streams.stderr.write(text), 'serve'), options.media);
  const { store, layout } = local;
  if (options.profile && !fresh && !(await store.tenants.list()).length) {
    await consentToLocalProfile(ctx, store, options.profile).catch(async (err) => {
      await store.close();
      throw err;
    });
  }
  const created = await initFirstTenant(store);
  const demo = options.demo ? await seedDemo(store, (await store.tenants.list())[0].id, { mediaDir: layout.mediaDir }) : undefined;
  // Fresh planner statistics: without them a large tenant's ordered pages can pick a poor index.
  store.optimize();
  const retryDelays = retryDelaysFrom(ctx.env);
  return {
    // Lists run on worker threads with read-only connections (docs/local-server.md, "Durability and concurrency").
    store: store.withReadPool(),
    signingSecret: local.signingSecret,
    mediaDir: layout.mediaDir,
    where: layout.dir,
    created,
    demo,
    start: () => startWebhookSender(store, retryDelays, serveLog(options.log, (text) => ctx.streams.stderr.write(text), 'webhooks')),
  };
}

/**
 * Opens the PostgreSQL store of `--database` (see `openShared`). Every instance runs a webhook
 * sender on the shared outbox; each delivery is leased to one of them.
 */
async function openSharedService(url: string, options: ServeOptions, ctx: CliContext): Promise<Opened> {
  const retryDelays = retryDelaysFrom(ctx.env);
  const { openShared } = await import('./postgres.js');
  const shared = await openShared(url, options, ctx);
  return {
    ...shared,
    where: shared.store.location,
    start: () => startWebhookSender(shared.store, retryDelays, serveLog(options.log, (text) => ctx.streams.stderr.write(text), 'webhooks')),
  };
}

/**
 * Runs `confctl serve` until SIGINT or SIGTERM: opens the store (the SQLite data directory, or
 * the PostgreSQL database of `--database`/`CONFCTL_DATABASE_URL`), listens, and shuts down
 * gracefully (in-flight requests finish, background work stops, then the store closes).
 * Resolves once shut down.
 */
export async function runServe(options: ServeOptions, ctx: CliContext): Promise<void> {
  const out = ctx.streams.stdout;
  const database = chooseDatabase(options, ctx.env);
  if (options.pidFile) claimPidFile(options.pidFile, serveLog(options.log, (text) => ctx.streams.stderr.write(text), 'serve'));
  if (!database) keepHeapSmall();
  // Read before anything is opened: a bad token file is a usage error with nothing created.
  const token = options.testControls ? controlToken(options.testControls) : undefined;
  const opened = database ? await openSharedService(database, options, ctx) : await openLocalService(options, ctx);
  const { store, created, demo } = opened;
  // The webhook sender starts once listening; a move of the manual clock before then has nothing to wake.
  let wakeSender = () => {};
  const clock = await installClock(store, options.clock, () => wakeSender()).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const { server } = createServer({
    store,
    signingSecret: opened.signingSecret,
    mediaDir: opened.mediaDir,
    rateLimit: options.rateLimit,
    maxAttendees: options.maxAttendees,
    trustProxy: options.trustProxy,
    log: options.log,
    strict: options.strict,
    cors: options.cors,
    testControls: token === undefined ? null : { token },
    clockControl: clock.control,
    roundTrips: database !== undefined,
    logStream: ctx.streams.stderr,
    ...options.connections,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  }).catch(async (err: NodeJS.ErrnoException) => {
    clock.restore();
    await store.close();
    throw listenError(err, options);
  });
  const port = (server.address() as AddressInfo).port;
  const baseUrl = baseUrlFor(options.host, port);

  if (created) {
    out.write(`Created tenant ${created.tenant.primary_domain} in ${opened.where}\n`);
    out.write(`Access key (the secret is shown only now):\n  key id: ${created.key.id}\n  secret: ${created.key.secret}\n`);
  }
  if (opened.createdElsewhere) {
    // Secrets are stored only as digests (decisions §3): this instance cannot show that key.
    out.write(`The tenant was created by another instance; its key was printed there. To make another: confctl admin keys create --name NAME --permissions '*' --database URL\n`);
  }
  if (options.profile) {
    const saved = await saveLocalProfile(ctx, store, baseUrl, created?.key, options.profile.name);
    if (saved) out.write(`Profile '${options.profile.name}' points at ${baseUrl}\n`);
  }
  if (demo) out.write(`${demoMessage(demo)}\n`);
  if (clock.line) out.write(`${clock.line}\n`);
  if (options.testControls && token !== undefined) out.write(controlsLine(new URL(baseUrl).origin, options.testControls, token));
  out.write(`Listening on ${baseUrl} (data: ${opened.where})\n`);
  if (options.pidFile) writePidFile(options.pidFile);
  const background = opened.start();
  wakeSender = () => background.wake();

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      Promise.all([closeGracefully(server), background.stop()])
        .then(() => store.close())
        .finally(() => {
          clock.restore();
          if (options.pidFile) removePidFile(options.pidFile);
        })
        .then(resolve, resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  out.write('Stopped.\n');
}
