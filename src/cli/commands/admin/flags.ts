/**
 * The flags admin commands share, as their register modules declare them. Which store a command
 * works on (`--data`, `--database`, `--media`) is read by `storeFlags` (store.ts), not by the
 * command's own options.
 */
export const DATA = ['--data <dir>', 'data directory (default: CONFCTL_DATA, else ~/.local/share/confctl)'] as const;
/** The rule of `databaseUrl` (local.ts): `--database`, else CONFCTL_DATABASE_URL unless `--data`. */
export const DATABASE = ['--database <url>', 'work on this PostgreSQL database instead of a data directory (default: CONFCTL_DATABASE_URL, unless --data is given)'] as const;
/** For the commands that write recording files. */
export const MEDIA = ['--media <dir>', "recording files' directory (default: CONFCTL_MEDIA_DIR, else the data directory's media/)"] as const;
export const TENANT = ['--tenant <domain>', 'tenant by primary or alias domain (default: the first tenant)'] as const;

