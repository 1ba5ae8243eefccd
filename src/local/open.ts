import { existsSync } from 'node:fs';
import { openStore } from '../store/index.js';
import type { DataDirStore } from '../store/port.js';
import type { TenantRecord } from '../store/types.js';
import { type DataDir, dataDirLayout, exposureWarning, instanceSecret, prepareDataDir, resolveDataDir, resolveMediaDir } from './data-dir.js';

/** An opened local data directory: its layout, the store and the URL-signing secret. */
export interface LocalInstance {
  layout: DataDir;
  store: DataDirStore;
  signingSecret: string;
}

const warned = new Set<string>();

/**
 * Opens (creating if needed) the data directory named by `--data`, `CONFCTL_DATA` or the default,
 * with its media directory (`--media`, `CONFCTL_MEDIA_DIR`, else the data directory's `media/`).
 * `warn` gets the warning of a data directory other users can access, once per directory and process.
 */
export function openLocal(dataFlag: string | undefined, env: NodeJS.ProcessEnv, warn?: (message: string) => void, mediaFlag?: string): LocalInstance {
  const dir = resolveDataDir(dataFlag, env);
  const layout = prepareDataDir(dir, resolveMediaDir(mediaFlag, env, dir));
  if (warn && !warned.has(layout.dir)) {
    const warning = exposureWarning(layout.dir);
    if (warning) warn(warning);
    warned.add(layout.dir);
  }
  const signingSecret = instanceSecret(layout);
  return { layout, store: openStore(layout.database), signingSecret };
}

/**
 * Opens a data directory to plan changes (`--dry-run`) without making any: an existing one as
 * `openLocal` does; a missing one as an empty in-memory store, creating nothing on disk.
 */
export function openLocalForPlan(dataFlag: string | undefined, env: NodeJS.ProcessEnv, mediaFlag?: string): LocalInstance & { exists: boolean } {
  const dir = resolveDataDir(dataFlag, env);
  const layout = dataDirLayout(dir, resolveMediaDir(mediaFlag, env, dir));
  if (existsSync(layout.database)) return { ...openLocal(dataFlag, env, undefined, mediaFlag), exists: true };
  return { layout, store: openStore(':memory:'), signingSecret: '', exists: false };
}

/** The tenant with this domain (primary or alias), or the first tenant when no domain is given. */
export async function findTenant(store: Pick<DataDirStore, 'tenants'>, domain: string | undefined): Promise<TenantRecord | undefined> {
  if (domain) return store.tenants.byDomain(domain.toLowerCase());
  return (await store.tenants.list())[0];
}
