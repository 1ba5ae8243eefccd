import type { Db } from '../db.js';
import type { WebhookDestinationRecord, WebhookDestinationRepo } from '../types.js';
import { nowIso, randomBase62 } from '../util.js';

interface DestinationRow extends Omit<WebhookDestinationRecord, 'events'> {
  events: string | null;
}

const toRecord = (r: DestinationRow): WebhookDestinationRecord => ({ ...r, events: r.events === null ? null : (JSON.parse(r.events) as string[]) });

/** Webhook destinations (decisions §13). The secret is kept in clear because signing needs it. */
export function webhookDestinationRepo(db: Db): WebhookDestinationRepo {
  const cols = 'id, tenant_id, url, events, secret, created_at, secret_rotated_at';
  const insert = db.prepare(`INSERT INTO webhook_destinations (${cols}) VALUES (@id, @tenant_id, @url, @events, @secret, @created_at, NULL)`);
  const select = db.prepare(`SELECT ${cols} FROM webhook_destinations WHERE id = ? AND deleted_at IS NULL`);
  const selectAll = db.prepare(`SELECT ${cols} FROM webhook_destinations WHERE deleted_at IS NULL ORDER BY created_at, id`);
  const selectTenant = db.prepare(`SELECT ${cols} FROM webhook_destinations WHERE tenant_id = ? AND deleted_at IS NULL ORDER BY created_at, id`);
  const remove = db.prepare('UPDATE webhook_destinations SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL');
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
    remove: (id) => remove.run(nowIso(), id).changes > 0,
    rotateSecret: (id, secret) => rotate.run(secret, nowIso(), id).changes > 0,
  };
}
