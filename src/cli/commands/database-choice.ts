import { UsageError } from '../context.js';

/** A PostgreSQL URL (`postgres://` or `postgresql://`); the check is here so the SQLite path does not load pg. */
export const isPostgresUrl = (value: string): boolean => /^postgres(ql)?:\/\//i.test(value);

/**
 * The PostgreSQL database a command (`serve`, `admin …`) works on, or undefined for the SQLite
 * data directory: `--database URL`, else `CONFCTL_DATABASE_URL` unless `--data` names a data
 * directory (a flag wins over the environment). Both flags at once, or a URL that is not
 * PostgreSQL's, is exit 2.
 */
export function chooseDatabase(flags: { data?: string; database?: string }, env: NodeJS.ProcessEnv): string | undefined {
  if (flags.database !== undefined && flags.data !== undefined) throw new UsageError('give --data (a SQLite data directory) or --database (PostgreSQL), not both');
  const url = flags.database ?? (flags.data === undefined ? env.CONFCTL_DATABASE_URL || undefined : undefined);
  if (url !== undefined && !isPostgresUrl(url)) {
    throw new UsageError(`${flags.database !== undefined ? '--database' : 'CONFCTL_DATABASE_URL'} must be a PostgreSQL URL (postgres://user@host/db)`);
  }
  return url;
}
