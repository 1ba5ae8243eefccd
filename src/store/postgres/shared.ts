import { all, one, type Queryable } from './pool.js';

/**
 * The change counters (schema: `confctl_changes`, moved by statement triggers in each writing
 * transaction), by scope: 'all' (any data table), 'tenancy' (tenants, domains, keys) and each data
 * table's own. One read of them all per request answers `changeToken`, `tenancyToken` and the
 * list totals' tables, so that a write on any instance, or an `admin` command, is seen before the
 * next request is answered.
 */
export async function readChangeCounters(db: Queryable): Promise<ReadonlyMap<string, string>> {
  const rows = await all<{ scope: string; counter: string }>(db, 'SELECT scope, counter::text AS counter FROM confctl_changes');
  return new Map(rows.map((r) => [r.scope, r.counter]));
}

/**
 * An SQL expression: the change counters of the tables named in the `text[]` parameter `param`, in
 * that order, as one text (`'12 7'`, '' for a table without a counter). A list's total is cached
 * under it; read in the statement or transaction of the list, it is the counters of that snapshot.
 */
export const tablesTokenSql = (param: string): string =>
  `(SELECT string_agg(coalesce(c.counter::text, ''), ' ' ORDER BY t.n) FROM unnest(${param}::text[]) WITH ORDINALITY AS t(scope, n) LEFT JOIN confctl_changes c ON c.scope = t.scope)`;

/** The name of the instance secret among `confctl_settings` (`SharedState.signingSecret`; `admin copy` stores the instance's). */
export const SIGNING_SECRET = 'signing_secret';

/**
 * The value of an instance-wide setting, stored by the first instance that asks (`make()`), so
 * every instance on the database reads the same one (the signing secret: a URL signed by one
 * verifies on all).
 */
export async function sharedSetting(db: Queryable, name: string, make: () => string): Promise<string> {
  await db.query('INSERT INTO confctl_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, make()]);
  return (await one<{ value: string }>(db, 'SELECT value FROM confctl_settings WHERE name = $1', [name]))!.value;
}

/** Counts of one request in the shared one-second window: its key's, and its tenant's unless the key was over its own limit. */
export interface WindowCounts {
  client: number;
  tenant: number;
  /** The database's clock, epoch milliseconds: windows are whole seconds of it, the same for every instance. */
  nowMs: number;
}

/**
 * Counts `n` requests of `clientBucket` and, for those within `clientLimit`, of `tenantBucket` in
 * the current window, atomically, in one statement: the windows are the database's, so the limits
 * hold across all instances together (decisions §5). Answers each request's counts in turn, as if
 * they had been counted one after the other (the requests of one turn share the statement).
 */
export async function countInWindow(db: Queryable, clientBucket: string, tenantBucket: string, clientLimit: number, n = 1): Promise<WindowCounts[]> {
  const r = await one<{ client: number; tenant: number; added: number; ms: string }>(
    db,
    `WITH now AS (SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms),
     c AS (INSERT INTO confctl_rate_windows (bucket, window_start, count) SELECT $1, ms / 1000, $4 FROM now
           ON CONFLICT (bucket, window_start) DO UPDATE SET count = confctl_rate_windows.count + excluded.count RETURNING count, window_start),
     t AS (INSERT INTO confctl_rate_windows (bucket, window_start, count) SELECT $2, window_start, least($4, $3 - (c.count - $4)) FROM c WHERE c.count - $4 < $3
           ON CONFLICT (bucket, window_start) DO UPDATE SET count = confctl_rate_windows.count + excluded.count RETURNING count)
     SELECT c.count AS client,
       coalesce((SELECT count FROM t), (SELECT w.count FROM confctl_rate_windows w WHERE w.bucket = $2 AND w.window_start = c.window_start), 0) AS tenant,
       CASE WHEN c.count - $4 < $3 THEN least($4, $3 - (c.count - $4)) ELSE 0 END AS added,
       (SELECT ms FROM now)::text AS ms
     FROM c`,
    [clientBucket, tenantBucket, clientLimit, n],
  );
  const { client, tenant, added } = r!;
  const nowMs = Number(r!.ms);
  return Array.from({ length: n }, (_, i) => ({ client: client - n + i + 1, tenant: tenant - added + Math.min(i + 1, added), nowMs }));
}

/** The current window's counts without counting (for the headers of answers decided before the limit stage). */
export async function peekWindow(db: Queryable, clientBucket: string, tenantBucket: string): Promise<WindowCounts> {
  const r = await one<{ client: number; tenant: number; ms: string }>(
    db,
    `WITH now AS (SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms)
     SELECT coalesce((SELECT count FROM confctl_rate_windows WHERE bucket = $1 AND window_start = now.ms / 1000), 0) AS client,
       coalesce((SELECT count FROM confctl_rate_windows WHERE bucket = $2 AND window_start = now.ms / 1000), 0) AS tenant,
       now.ms::text AS ms FROM now`,
    [clientBucket, tenantBucket],
  );
  return { client: r!.client, tenant: r!.tenant, nowMs: Number(r!.ms) };
}

/** Forgets windows that ended more than a minute ago. */
export async function pruneWindows(db: Queryable): Promise<void> {
  await db.query('DELETE FROM confctl_rate_windows WHERE window_start < floor(extract(epoch FROM clock_timestamp()))::bigint - 60');
}
