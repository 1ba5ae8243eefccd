import type { Db } from '../db.js';
import type { InvitationRecord, InvitationRepo } from '../../types.js';
import { nowIso } from '../../util.js';

/** The invitations outbox (decisions §11): what a user create would have mailed, per tenant. */
export function invitationRepo(db: Db): InvitationRepo {
  const insert = db.prepare('INSERT INTO invitations (tenant_id, user_id, email, created_at) VALUES (?, ?, ?, ?)');
  const list = db.prepare('SELECT id, tenant_id, user_id, email, created_at FROM invitations WHERE tenant_id = ? ORDER BY id');
  return {
    insert(tenantId, input) {
      const created = input.created_at ?? nowIso();
      const id = Number(insert.run(tenantId, input.user_id, input.email, created).lastInsertRowid);
      return { id, tenant_id: tenantId, user_id: input.user_id, email: input.email, created_at: created };
    },
    list: (tenantId) => list.all(tenantId) as InvitationRecord[],
  };
}
