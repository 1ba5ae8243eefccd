import { randomUUID } from 'node:crypto';
import { type Db, immediate } from '../db.js';
import type { DeliveryAttempt, DeliveryRecord, WebhookDestinationRecord, WebhookDestinationRepo, WebhookOutboxRepo } from '../../types.js';
import { nowIso, randomBase62 } from '../../util.js';

interface DestinationRow extends Omit<WebhookDestinationRecord, 'events'> {
  events: string | null;
}

const toRecord = (r: DestinationRow): WebhookDestinationRecord => ({ ...r, events: r.events === null ? null : (JSON.parse(r.events) as string[]) });

/** Webhook destinations (decisions §13). The secret is kept in clear because signing needs it. */
export function webhookDestinationRepo(db: Db): WebhookDestinationRepo {
  const cols = 'id, tenant_id, url, events, secret, created_at, secret_rotated_at';
  const insert = db.prepare(`INSERT INTO webhook_destinations (${cols}) VALUES (@id, @tenant_id, @url, @events, @secret, @created_at, NULL)`);
  const select = db.prepare(`SELECT ${cols} FROM webhook_destinations WHERE id = ? AND deleted_at IS NULL`);
  const selectAll = db.prepare(`SELECT ${cols} FROM webhook_destinations WHERE deleted_at IS NULL ORDER BY created_at, rowid`);
  const selectTenant = db.prepare(`SELECT ${cols} FROM webhook_destinations WHERE tenant_id = ? AND deleted_at IS NULL ORDER BY created_at, rowid`);
  const remove = db.prepare('UPDATE webhook_destinations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL');
  const cancel = db.prepare("UPDATE webhook_deliveries SET status = 'canceled', lease_until = NULL, finished_at = ? WHERE destination_id = ? AND status = 'pending'");
  const rotate = db.prepare('UPDATE webhook_destinations SET secret = ?, secret_rotated_at = ? WHERE id = ? AND deleted_at IS NULL');

  const get = (id: string) => {
    const r = select.get(id) as DestinationRow | undefined;
    return r ? toRecord(r) : undefined;
  };

  return {
    create(input) {
      const id = `wh_${randomBase62(24)}`;
      insert.run({ ...input, id, events: input.events === null ? null : JSON.stringify(input.events), created_at: nowIso() });
      return get(id)!;
    },
    get,
    list: (tenantId) => ((tenantId === undefined ? selectAll.all() : selectTenant.all(tenantId)) as DestinationRow[]).map(toRecord),
    remove: immediate(db, (id: string) => {
      const now = nowIso();
      if (remove.run(now, id).changes === 0) return false;
      cancel.run(now, id);
      return true;
    }),
    rotateSecret: (id, secret) => rotate.run(secret, nowIso(), id).changes > 0,
  };
}

type DeliveryRow = Omit<DeliveryRecord, 'attempts'>;

/**
 * The webhook outbox (decisions §13): deliveries written with the change that produced their
 * event, claimed by a sender with a lease, and their attempts.
 */
export function webhookOutboxRepo(db: Db): WebhookOutboxRepo {
  const destinations = db.prepare('SELECT id, events FROM webhook_destinations WHERE tenant_id = ? AND deleted_at IS NULL ORDER BY created_at, rowid');
  const insert = db.prepare(`INSERT INTO webhook_deliveries (tenant_id, destination_id, event_id, type, body, status, next_attempt_at, created_at)
    VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)`);
  const due = db.prepare(`SELECT d.id, d.event_id, w.url, w.secret, d.body, d.attempt_count FROM webhook_deliveries d
    JOIN webhook_destinations w ON w.id = d.destination_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= @now AND (d.lease_until IS NULL OR d.lease_until <= @now)
    ORDER BY d.next_attempt_at, d.id LIMIT 1`);
  const lease = db.prepare('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?');
  const addAttempt = db.prepare('INSERT INTO webhook_attempts (delivery_id, at, status_code, error) VALUES (?, ?, ?, ?)');
  const finish = db.prepare('UPDATE webhook_deliveries SET status = ?, attempt_count = attempt_count + 1, lease_until = NULL, finished_at = ? WHERE id = ?');
  const retry = db.prepare('UPDATE webhook_deliveries SET attempt_count = attempt_count + 1, lease_until = NULL, next_attempt_at = ? WHERE id = ?');
  const nextDue = db.prepare("SELECT min(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending'").pluck();
  const cols = `d.id, d.tenant_id, d.destination_id, w.url, d.event_id, d.type, d.body, d.status, d.attempt_count, d.next_attempt_at,
    d.created_at, d.finished_at`;
  const from = 'FROM webhook_deliveries d JOIN webhook_destinations w ON w.id = d.destination_id';
  const listed = db.prepare(`SELECT ${cols} ${from}
    WHERE (@tenant IS NULL OR d.tenant_id = @tenant) AND (@failed = 0 OR d.status = 'failed') ORDER BY d.id DESC LIMIT @limit`);
  const one = db.prepare(`SELECT ${cols} ${from} WHERE d.id = ?`);
  const attempts = db.prepare('SELECT at, status_code, error FROM webhook_attempts WHERE delivery_id = ? ORDER BY id');
  const again = db.prepare(`UPDATE webhook_deliveries SET status = 'pending', attempt_count = 0, lease_until = NULL, finished_at = NULL,
    next_attempt_at = ? WHERE id = ?`);
  const prune = db.prepare("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < ?");

  const withAttempts = (r: DeliveryRow): DeliveryRecord => ({ ...r, attempts: attempts.all(r.id) as DeliveryAttempt[] });

  return {
    enqueue(tenantId, type, data) {
      const targets = (destinations.all(tenantId) as { id: string; events: string | null }[]).filter(
        (d) => d.events === null || (JSON.parse(d.events) as string[]).includes(type),
      );
      if (targets.length === 0) return 0;
      const eventId = randomUUID();
      const body = JSON.stringify({ event: type, data });
      const now = nowIso();
      for (const d of targets) insert.run(tenantId, d.id, eventId, type, body, now, now);
      return targets.length;
    },
    claim: immediate(db, (now: string, leaseUntil: string) => {
      const row = due.get({ now }) as ReturnType<WebhookOutboxRepo['claim']>;
      if (row) lease.run(leaseUntil, row.id);
      return row;
    }),
    settle: immediate(db, (id: number, attempt: DeliveryAttempt, outcome: { status: 'delivered' | 'failed' } | { retryAt: string }) => {
      addAttempt.run(id, attempt.at, attempt.status_code, attempt.error);
      if ('retryAt' in outcome) retry.run(outcome.retryAt, id);
      else finish.run(outcome.status, attempt.at, id);
    }),
    nextDue: () => (nextDue.get() as string | null) ?? undefined,
    list: ({ tenantId, failed, limit }) => (listed.all({ tenant: tenantId ?? null, failed: failed ? 1 : 0, limit }) as DeliveryRow[]).map(withAttempts),
    get(id) {
      const r = one.get(id) as DeliveryRow | undefined;
      return r ? withAttempts(r) : undefined;
    },
    redeliver: (id) => again.run(nowIso(), id).changes > 0,
    prune: (before) => prune.run(before).changes,
  };
}
