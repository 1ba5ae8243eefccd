/** The action of `confctl mirror` (see src/admin/mirror/run.ts): flags, source, target, progress. */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { Anonymizer } from '../../../admin/mirror/anonymize.js';
import { runMirror } from '../../../admin/mirror/run.js';
import { type MirrorSettings, type MirrorState, readState, settingsMismatch, writeState } from '../../../admin/mirror/state.js';
import { durationSyntax, parseDuration } from '../../../contract/duration.js';
import { dataDirLayout, resolveDataDir, resolveMediaDir } from '../../../local/data-dir.js';
import { initFirstTenant } from '../../../local/init.js';
import { openLocal } from '../../../local/open.js';
import { openMirrorRows } from '../../../store/mirror.js';
import { apiClient, type CliContext, CliError, EXIT, globalOptions, UsageError } from '../../context.js';
import { liveLine } from '../../progress/bar.js';
import { print } from '../admin/local.js';
import { isPostgresUrl } from '../database-choice.js';
import { checkProfileName, saveLocalProfile } from '../local-profile.js';
import { baseUrlFor } from '../listen-address.js';

interface MirrorFlags {
  fromProfile: string;
  toData?: string;
  toDatabase?: string;
  media?: string;
  anonymize?: boolean;
  seed?: string;
  since?: string;
  limitPerKind?: string;
  resume?: boolean;
  profileName?: string;
}

const seedCheck = (seed: string) => createHmac('sha256', seed).update('confctl mirror seed check').digest('hex').slice(0, 16);

/** Flags → the settings a mirror is started (and resumed) with; no I/O. */
function settingsOf(flags: MirrorFlags, source: string, seed: string | undefined): MirrorSettings {
  if (flags.seed !== undefined && !flags.anonymize) throw new UsageError('--seed goes with --anonymize');
  let limit: number | null = null;
  if (flags.limitPerKind !== undefined) {
    if (!/^[1-9]\d*$/.test(flags.limitPerKind)) throw new UsageError(`--limit-per-kind must be a positive integer, not '${flags.limitPerKind}'`);
    limit = Number(flags.limitPerKind);
  }
  if (flags.since !== undefined && !parseDuration(flags.since, ['ms', 's', 'm', 'h', 'd'])) {
    throw new UsageError(`--since must be a positive duration: ${durationSyntax(['ms', 's', 'm', 'h', 'd'])}, not '${flags.since}'`);
  }
  return { source, since: flags.since ?? null, limit_per_kind: limit, anonymize: Boolean(flags.anonymize), seed_check: seed === undefined ? null : seedCheck(seed) };
}

/** Where the rows go first: the data directory, or for a database a staging directory named after it (so a resume finds it). */
function targetDir(flags: MirrorFlags): string {
  if (flags.toData !== undefined && flags.toDatabase !== undefined) throw new UsageError('give --to-data or --to-database, not both');
  if (flags.toData !== undefined) return path.resolve(flags.toData);
  if (flags.toDatabase === undefined) throw new UsageError('say where the mirror goes: --to-data DIR or --to-database URL');
  if (!isPostgresUrl(flags.toDatabase)) throw new UsageError('--to-database must be a PostgreSQL URL (postgres://user@host/db)');
  return path.join(tmpdir(), `confctl-mirror-${createHash('sha256').update(flags.toDatabase).digest('hex').slice(0, 16)}`);
}

/** A new target: an empty data directory initialised as `admin init` does (first tenant, all-permissions key). */
async function createTarget(ctx: CliContext, dir: string, flags: MirrorFlags) {
  const local = openLocal(dir, ctx.env);
  try {
    const created = await initFirstTenant(local.store);
    if (!created) throw new CliError(`${dir} already holds an instance`, EXIT.conflict, 'mirror into a new directory, or give --resume to continue a mirror there');
    if (flags.profileName !== undefined) await saveLocalProfile(ctx, local.store, baseUrlFor('localhost', 8080), created.key, flags.profileName);
    return { tenantId: created.tenant.id, key: created.key };
  } finally {
    await local.store.close();
  }
}

export async function mirror(ctx: CliContext, cmd: Command, raw: Record<string, unknown>): Promise<void> {
  const flags = raw as unknown as MirrorFlags;
  const globals = globalOptions(cmd);
  const dir = targetDir(flags);
  if (flags.media !== undefined && flags.toDatabase === undefined) throw new UsageError('--media goes with --to-database (a data directory keeps its files in its media/)');
  if (flags.profileName !== undefined) checkProfileName(flags.profileName);
  const seed = flags.anonymize ? (flags.seed ?? (flags.resume ? undefined : randomBytes(12).toString('hex'))) : undefined;
  if (flags.anonymize && seed === undefined) throw new UsageError('--resume of an anonymized mirror needs its --seed again');
  const { client } = await apiClient(ctx, { ...globals, profile: flags.fromProfile });
  const settings = settingsOf(flags, client.baseUrl, seed);
  const saved = readState(dir);
  let state: MirrorState;
  let created: Awaited<ReturnType<typeof createTarget>> | undefined;
  if (flags.resume) {
    if (!saved) throw new UsageError(`nothing to resume in ${dir}: no mirror was started there`);
    const differs = settingsMismatch(saved.settings, settings);
    if (differs) throw new UsageError(`--resume must be given the options the mirror began with: ${differs} differs`);
    state = saved;
  } else {
    if (saved || existsSync(dataDirLayout(dir).database)) {
      throw new CliError(`${dir} already holds ${saved ? 'a mirror' : 'an instance'}`, EXIT.conflict, 'mirror into a new directory, or give --resume to continue a mirror there');
    }
    if (flags.profileName !== undefined && (await ctx.config()).get(flags.profileName)) {
      throw new CliError(`profile '${flags.profileName}' exists`, EXIT.conflict, 'give --profile-name a new name, or leave it out');
    }
    if (flags.anonymize && flags.seed === undefined) ctx.streams.stderr.write(`mirror: anonymizing with seed ${seed}; give --seed ${seed} to repeat it or to --resume\n`);
    created = await createTarget(ctx, dir, flags);
    const since = flags.since === undefined ? null : new Date(ctx.now().getTime() - parseDuration(flags.since, ['ms', 's', 'm', 'h', 'd'])!).toISOString();
    state = { version: 1, settings, tenant_id: created.tenantId, since_at: since, stage: 'users', page: 1, taken: 0, counts: { users: 0, customers: 0, conferences: 0, attendees: 0, recordings: 0, files: 0 }, name_tags: [] };
    writeState(dir, state);
  }

  const layout = dataDirLayout(dir);
  const rows = openMirrorRows(layout.database);
  const progress = ctx.streams.stderrIsTTY ? liveLine(ctx.streams.stderr, { now: () => ctx.now().getTime() }) : undefined;
  try {
    await runMirror({
      client,
      rows,
      dataDir: dir,
      mediaDir: layout.mediaDir,
      state,
      anonymizer: seed === undefined ? undefined : new Anonymizer(seed),
      now: ctx.now,
      // Drawn once per page read, which paces it well enough: the last line (`done`) is never skipped.
      onProgress: (stage, counts) =>
        progress?.show(`Mirroring ${stage}: ${Object.entries(counts).map(([k, n]) => `${n} ${k.replaceAll('_', ' ')}`).join(', ')}`, true),
    });
  } finally {
    progress?.done();
    rows.close();
  }
  let target = dir;
  if (flags.toDatabase !== undefined) target = await moveToDatabase(ctx, dir, flags.toDatabase, flags.media);
  await print(ctx, globals, {
    target,
    counts: state.counts,
    anonymized: settings.anonymize,
    ...(created && { key_id: created.key.id, secret: created.key.secret }),
    ...(flags.profileName !== undefined && created && { profile: flags.profileName }),
  });
}

/** Copies the staging directory into the database (admin copy's machinery), then removes it. */
async function moveToDatabase(ctx: CliContext, staging: string, url: string, media: string | undefined): Promise<string> {
  const { copyToPostgres } = await import('../../../admin/copy.js');
  const env = ctx.env as NodeJS.ProcessEnv;
  const summary = await copyToPostgres({
    from: staging,
    to: url,
    mediaFrom: dataDirLayout(staging).mediaDir,
    mediaTo: resolveMediaDir(media, env, resolveDataDir(undefined, env)),
    replace: false,
  });
  rmSync(staging, { recursive: true, force: true });
  return summary.to;
}
