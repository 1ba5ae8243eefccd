import type { Db } from '../db.js';
import type { AccessKeyRepo } from '../../types.js';
import { type KeyRow, toKeyRecord } from '../../rows/keys.js';
import { nowIso, randomBase62, sha256Hex } from '../../util.js';

/**
 * Access keys. Only the hex SHA-256 digest of a secret is stored; the secret leaves this module
 * once, as the result of `create`. Never log it.
 */
export function keyRepo(db: Db, wrote: () => void): AccessKeyRepo {
  const cols = 'id, tenant_id, name, secret_hash, permissions, expires_at, revoked_at, created_at';
  const insert = db.prepare(
    `INSERT INTO access_keys (${cols}) VALUES (@id, @tenant_id, @name, @secret_hash, @permissions, @expires_at, NULL, @created_at)`,
  );
  const select = db.prepare(`SELECT ${cols} FROM access_keys WHERE id = ?`);
  const selectAll = db.prepare(`SELECT ${cols} FROM access_keys ORDER BY created_at, id`);
  const selectTenant = db.prepare(`SELECT ${cols} FROM access_keys WHERE tenant_id = ? ORDER BY created_at, id`);
  const revoke = db.prepare('UPDATE access_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?');

  const get = (id: string) => {
    const r = select.get(id) as KeyRow | undefined;
    return r ? toKeyRecord(r) : undefined;
  };

  return {
    create(input) {
      const id = `ak_${randomBase62(24)}`;
      const secret = randomBase62(48);
      wrote();
      insert.run({
        id,
        tenant_id: input.tenant_id,
        name: input.name,
        secret_hash: sha256Hex(secret),
        permissions: JSON.stringify([...input.permissions]),
        expires_at: input.expires_at ? new Date(input.expires_at).toISOString() : null,
        created_at: nowIso(),
      });
      return { record: get(id)!, secret };
    },
    get,
    list: (tenantId) => ((tenantId === undefined ? selectAll.all() : selectTenant.all(tenantId)) as KeyRow[]).map(toKeyRecord),
    revoke(id) {
      wrote();
      return revoke.run(nowIso(), id).changes > 0;
    },
  };
}
