import type { Command } from 'commander';
import { type GlobalOptions, globalOptions } from '../../context.js';

/**
 * The flags admin commands share, as their register modules declare them. Which store a command
 * works on (`--data`, `--database`, `--media`) is parsed by `commonOptions` below into every command's options.
 */
export const DATA = ['--data <dir>', 'data directory (default: CONFCTL_DATA, else ~/.local/share/confctl)'] as const;
/** The rule of `databaseUrl` (local.ts): `--database`, else CONFCTL_DATABASE_URL unless `--data`. */
export const DATABASE = ['--database <url>', 'work on this PostgreSQL database instead of a data directory (default: CONFCTL_DATABASE_URL, unless --data is given)'] as const;
/** For the commands that write recording files. */
export const MEDIA = ['--media <dir>', "recording files' directory (default: CONFCTL_MEDIA_DIR, else the data directory's media/)"] as const;
export const TENANT = ['--tenant <domain>', 'tenant by primary or alias domain (default: the first tenant)'] as const;


/** Which store a command works on, and whether it only plans (`--dry-run`), as its flags say. */
export interface StoreFlags {
  data?: string;
  database?: string;
  media?: string;
  dryRun: boolean;
}

/** What every admin command's options hold besides its own: the store its flags name, and the global options it prints with. */
export interface AdminCommon {
  store: StoreFlags;
  globals: GlobalOptions;
}

/** A command's own flags: its options without the common ones. */
export type OwnFlags<O> = Omit<O, keyof AdminCommon>;

/** The common options of `cmd`, parsed in its register module: `--data`, `--database`, `--media` and the global options. */
export function commonOptions(cmd: Command): AdminCommon {
  const { data, database, media } = cmd.opts<{ data?: string; database?: string; media?: string }>();
  const globals = globalOptions(cmd);
  return { store: { data, database, media, dryRun: globals.dryRun }, globals };
}
