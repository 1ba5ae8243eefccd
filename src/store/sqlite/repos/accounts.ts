import type { ConnectedAccount, OnlineConferenceAccount } from '../../../contract/index.js';
import type { Db } from '../db.js';
import type { ConferenceAccountRepo, ConnectedAccountRepo, ProviderRecord, ProviderRepo } from '../../types.js';
import { nowIso, pageOffset } from '../../util.js';
import { CONFERENCE_ACCOUNT_COLUMNS, CONNECTED_COLUMNS } from '../../rows/accounts.js';

/** Global providers (`zoom`, `google`, ...); `ensure` is idempotent. */
export function providerRepo(db: Db): ProviderRepo {
  const insert = db.prepare('INSERT INTO providers (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING');
  const byName = db.prepare('SELECT id, name FROM providers WHERE name = ?');
  const list = db.prepare('SELECT id, name FROM providers ORDER BY id');
  return {
    ensure(name) {
      insert.run(name, nowIso());
      return byName.get(name) as ProviderRecord;
    },
    list: () => list.all() as ProviderRecord[],
  };
}


/** A user's (or customer's) accounts at providers. Lists show non-deleted rows by id. */
export function connectedAccountRepo(db: Db): ConnectedAccountRepo {
  const insert = db.prepare(`INSERT INTO connected_accounts (tenant_id, owner_type, owner_id, provider_id, provider_uid,
    provider_email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const get = db.prepare(`SELECT ${CONNECTED_COLUMNS} FROM connected_accounts WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL`);
  const where = 'owner_id = ? AND owner_type = ? AND tenant_id = ? AND deleted_at IS NULL';
  const page = db.prepare(`SELECT ${CONNECTED_COLUMNS} FROM connected_accounts WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`);
  const count = db.prepare(`SELECT COUNT(*) FROM connected_accounts WHERE ${where}`).pluck();
  return {
    insert(tenantId, i) {
      const now = nowIso();
      const r = insert.run(tenantId, i.owner_type, i.owner_id, i.provider_id, i.provider_uid, i.provider_email ?? null, now, now);
      return get.get(tenantId, Number(r.lastInsertRowid)) as ConnectedAccount;
    },
    get: (tenantId, id) => get.get(tenantId, id) as ConnectedAccount | undefined,
    listByOwner(tenantId, ownerType, ownerId, p) {
      const args = [ownerId, ownerType, tenantId];
      return { rows: page.all(...args, p.page_size, pageOffset(p)) as ConnectedAccount[], total: count.get(...args) as number };
    },
  };
}


/** Online conference accounts (the "rooms" conferences are held in), owned by a user. */
export function conferenceAccountRepo(db: Db): ConferenceAccountRepo {
  const insert = db.prepare(`INSERT INTO conference_accounts (tenant_id, owner_type, owner_id, connected_account_id, name,
    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const get = db.prepare(`SELECT ${CONFERENCE_ACCOUNT_COLUMNS} FROM conference_accounts WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL`);
  const where = 'owner_id = ? AND owner_type = ? AND tenant_id = ? AND deleted_at IS NULL';
  const page = db.prepare(`SELECT ${CONFERENCE_ACCOUNT_COLUMNS} FROM conference_accounts WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`);
  const count = db.prepare(`SELECT COUNT(*) FROM conference_accounts WHERE ${where}`).pluck();
  return {
    insert(tenantId, i) {
      const now = nowIso();
      const r = insert.run(tenantId, i.owner_type, i.owner_id, i.connected_account_id ?? null, i.name, now, now);
      return get.get(tenantId, Number(r.lastInsertRowid)) as OnlineConferenceAccount;
    },
    get: (tenantId, id) => get.get(tenantId, id) as OnlineConferenceAccount | undefined,
    listByOwner(tenantId, ownerType, ownerId, p) {
      const args = [ownerId, ownerType, tenantId];
      return { rows: page.all(...args, p.page_size, pageOffset(p)) as OnlineConferenceAccount[], total: count.get(...args) as number };
    },
  };
}
