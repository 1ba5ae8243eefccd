import { randomUUID } from 'node:crypto';
import type { ClaimedDelivery, DeliveryAttempt, DeliveryRecord, MeetingLinkRecord, WebhookDestinationRecord } from '../types.js';
import { nowIso, randomBase62 } from '../util.js';
import { all, one, type Queryable } from './pool.js';

type Atomically = <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>;

interface DestinationRow extends Omit<WebhookDestinationRecord, 'events'> {
  events: string | null;
}

const toRecord = (r: DestinationRow): WebhookDestinationRecord => ({ ...r, events: r.events === null ? null : (JSON.parse(r.events) as string[]) });

const DESTINATION_COLUMNS = 'id, tenant_id, url, events, secret, created_at, secret_rotated_at';

/**
 * Webhook destinations (decisions §13), as SQLite's `webhookDestinationRepo`. Live ones are listed
 * oldest first; SQLite breaks a tie of `created_at` (two made in one millisecond) by insertion
 * order, PostgreSQL, which has no rowid, by id.
 */
export function pgWebhookDestinations(db: Queryable, atomically: Atomically) {
  const get = async (id: string): Promise<WebhookDestinationRecord | undefined> => {
    const r = await one<DestinationRow>(db, `SELECT ${DESTINATION_COLUMNS} FROM webhook_destinations WHERE id = $1 AND deleted_at IS NULL`, [id]);
    return r && toRecord(r);
  };
  return {
    create: async (input: { tenant_id: number; url: string; events: string[] | null; secret: string }): Promise<WebhookDestinationRecord> => {
      const id = `wh_${randomBase62(24)}`;
      await db.query(`INSERT INTO webhook_destinations (${DESTINATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, NULL)`, [
        id,
        input.tenant_id,
        input.url,
        input.events === null ? null : JSON.stringify(input.events),
        input.secret,
        nowIso(),
      ]);
      return (await get(id))!;
    },
    get,
    list: async (tenantId?: number): Promise<WebhookDestinationRecord[]> =>
      (tenantId === undefined
        ? await all<DestinationRow>(db, `SELECT ${DESTINATION_COLUMNS} FROM webhook_destinations WHERE deleted_at IS NULL ORDER BY created_at, id`)
        : await all<DestinationRow>(db, `SELECT ${DESTINATION_COLUMNS} FROM webhook_destinations WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`, [tenantId])
      ).map(toRecord),
    /** Soft-deletes the destination and cancels its pending deliveries, in one transaction. */
    remove: (id: string): Promise<boolean> =>
      atomically(async (tx) => {
        const now = nowIso();
        const removed = await tx.query('UPDATE webhook_destinations SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL', [now, id]);
        if (removed.rowCount === 0) return false;
        await tx.query("UPDATE webhook_deliveries SET status = 'canceled', lease_until = NULL, finished_at = $1 WHERE destination_id = $2 AND status = 'pending'", [now, id]);
        return true;
      }),
    rotateSecret: async (id: string, secret: string): Promise<boolean> =>
      ((await db.query('UPDATE webhook_destinations SET secret = $1, secret_rotated_at = $2 WHERE id = $3 AND deleted_at IS NULL', [secret, nowIso(), id])).rowCount ?? 0) > 0,
  };
}

type DeliveryRow = Omit<DeliveryRecord, 'attempts'>;

const DELIVERY_COLUMNS = `d.id, d.tenant_id, d.destination_id, w.url, d.event_id, d.type, d.body, d.status, d.attempt_count, d.next_attempt_at,
  d.created_at, d.finished_at`;
const DELIVERY_FROM = 'FROM webhook_deliveries d JOIN webhook_destinations w ON w.id = d.destination_id';

/** Every attempt of `rows`, in order, attached to its delivery (one query for the lot). */
async function withAttempts(db: Queryable, rows: DeliveryRow[]): Promise<DeliveryRecord[]> {
  if (rows.length === 0) return [];
  const attempts = await all<DeliveryAttempt & { delivery_id: number }>(
    db,
    'SELECT delivery_id, at, status_code, error FROM webhook_attempts WHERE delivery_id = ANY($1::bigint[]) ORDER BY id',
    [rows.map((r) => r.id)],
  );
  const byDelivery = new Map<number, DeliveryAttempt[]>(rows.map((r) => [r.id, []]));
  for (const { delivery_id, ...a } of attempts) byDelivery.get(delivery_id)!.push(a);
  return rows.map((r) => ({ ...r, attempts: byDelivery.get(r.id)! }));
}

/**
 * The webhook outbox (decisions §13), as SQLite's `webhookOutboxRepo`. `enqueue` runs on the
 * change's transaction (pass its client as `db`); the sender's `claim` leases one due delivery
 * in one statement whose row lock is taken with `SKIP LOCKED`, so instances claiming at the same
 * moment each take another delivery, never the same one.
 */
export function pgWebhookOutbox(db: Queryable) {
  return {
    /**
     * One pending delivery per live destination of the tenant that wants `type`. The destinations
     * are read `FOR SHARE`: a removal waits for this transaction, then cancels what it queued (as
     * SQLite's write lock orders them), and one that committed first is not queued for.
     */
    enqueue: async (tenantId: number, type: string, data: Record<string, unknown>): Promise<number> => {
      const destinations = await all<{ id: string; events: string | null }>(
        db,
        'SELECT id, events FROM webhook_destinations WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY created_at, id FOR SHARE',
        [tenantId],
      );
      const targets = destinations.filter((d) => d.events === null || (JSON.parse(d.events) as string[]).includes(type));
      if (targets.length === 0) return 0;
      const eventId = randomUUID();
      const body = JSON.stringify({ event: type, data });
      const now = nowIso();
      await db.query(
        `INSERT INTO webhook_deliveries (tenant_id, destination_id, event_id, type, body, status, next_attempt_at, created_at)
          SELECT $1::bigint, destination_id, $3::text, $4::text, $5::text, 'pending', $6::text, $6::text FROM unnest($2::text[]) WITH ORDINALITY AS t(destination_id, n) ORDER BY n`,
        [tenantId, targets.map((d) => d.id), eventId, type, body, now],
      );
      return targets.length;
    },
    /**
     * Leases the oldest due delivery (pending, due by `now`, its lease absent or run out) until
     * `leaseUntil`: one statement, one row lock, skipping rows another claimer holds.
     */
    claim: async (now: string, leaseUntil: string): Promise<ClaimedDelivery | undefined> =>
      one<ClaimedDelivery>(
        db,
        `UPDATE webhook_deliveries d SET lease_until = $2 FROM webhook_destinations w
          WHERE w.id = d.destination_id AND d.id = (
            SELECT id FROM webhook_deliveries
              WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
              ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING d.id, d.event_id, w.url, w.secret, d.body, d.attempt_count`,
        [now, leaseUntil],
      ),
    /** Records the attempt and ends the lease, in one statement. */
    settle: async (id: number, attempt: DeliveryAttempt, outcome: { status: 'delivered' | 'failed' } | { retryAt: string }): Promise<void> => {
      const recorded = 'WITH a AS (INSERT INTO webhook_attempts (delivery_id, at, status_code, error) VALUES ($1, $2, $3, $4))';
      const args = [id, attempt.at, attempt.status_code, attempt.error];
      if ('retryAt' in outcome) {
        await db.query(`${recorded} UPDATE webhook_deliveries SET attempt_count = attempt_count + 1, lease_until = NULL, next_attempt_at = $5 WHERE id = $1`, [
          ...args,
          outcome.retryAt,
        ]);
      } else {
        await db.query(`${recorded} UPDATE webhook_deliveries SET status = $5, attempt_count = attempt_count + 1, lease_until = NULL, finished_at = $2 WHERE id = $1`, [
          ...args,
          outcome.status,
        ]);
      }
    },
    nextDue: async (): Promise<string | undefined> =>
      (await one<{ due: string | null }>(db, "SELECT min(next_attempt_at) AS due FROM webhook_deliveries WHERE status = 'pending'"))?.due ?? undefined,
    list: async ({ tenantId, failed, limit }: { tenantId?: number; failed?: boolean; limit: number }): Promise<DeliveryRecord[]> => {
      const where: string[] = [];
      const args: unknown[] = [];
      if (tenantId !== undefined) where.push(`d.tenant_id = $${args.push(tenantId)}`);
      if (failed) where.push("d.status = 'failed'");
      const rows = await all<DeliveryRow>(
        db,
        `SELECT ${DELIVERY_COLUMNS} ${DELIVERY_FROM} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY d.id DESC LIMIT $${args.push(limit)}`,
        args,
      );
      return withAttempts(db, rows);
    },
    get: async (id: number): Promise<DeliveryRecord | undefined> => {
      const row = await one<DeliveryRow>(db, `SELECT ${DELIVERY_COLUMNS} ${DELIVERY_FROM} WHERE d.id = $1`, [id]);
      return row && (await withAttempts(db, [row]))[0];
    },
    redeliver: async (id: number): Promise<boolean> =>
      ((await db.query(
        `UPDATE webhook_deliveries SET status = 'pending', attempt_count = 0, lease_until = NULL, finished_at = NULL, next_attempt_at = $1 WHERE id = $2`,
        [nowIso(), id],
      )).rowCount ?? 0) > 0,
    prune: async (before: string): Promise<number> =>
      (await db.query("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < $1", [before])).rowCount ?? 0,
  };
}

const LINK_COLUMNS = 'id, tenant_id, calendar_id, name, duration_minutes, created_at';

/** Meeting links (booking pages of a calendar), as SQLite's `meetingLinkRepo`. */
export function pgMeetingLinks(db: Queryable) {
  const get = (tenantId: number, id: number) => one<MeetingLinkRecord>(db, `SELECT ${LINK_COLUMNS} FROM meeting_links WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
  return {
    insert: async (tenantId: number, i: { calendar_id: number; name: string; duration_minutes: number }): Promise<MeetingLinkRecord> =>
      (await one<MeetingLinkRecord>(
        db,
        `INSERT INTO meeting_links (tenant_id, calendar_id, name, duration_minutes, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${LINK_COLUMNS}`,
        [tenantId, i.calendar_id, i.name, i.duration_minutes, nowIso()],
      ))!,
    get,
    list: (tenantId: number) => all<MeetingLinkRecord>(db, `SELECT ${LINK_COLUMNS} FROM meeting_links WHERE tenant_id = $1 ORDER BY id`, [tenantId]),
  };
}
