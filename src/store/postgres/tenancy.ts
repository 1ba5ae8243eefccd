import type { AccessKeyRecord, DepartmentRecord, InvitationRecord, TenantRecord } from '../types.js';
import { type KeyRow, toKeyRecord } from '../rows/keys.js';
import { nowIso, randomBase62, sha256Hex } from '../util.js';
import { all, guardUnique, one, type Queryable } from './pool.js';

const norm = (domain: string) => {
  const d = domain.trim().toLowerCase();
  if (!d) throw new Error('A domain must not be empty.');
  return d;
};

async function tenantById(db: Queryable, id: number): Promise<TenantRecord | undefined> {
  const t = await one<{ id: number; created_at: string }>(db, 'SELECT id, created_at FROM tenants WHERE id = $1', [id]);
  if (!t) return undefined;
  const domains = await all<{ domain: string; is_primary: number }>(
    db,
    'SELECT domain, is_primary FROM tenant_domains WHERE tenant_id = $1 ORDER BY is_primary DESC, created_at, domain',
    [id],
  );
  return {
    id: t.id,
    primary_domain: domains.find((d) => d.is_primary === 1)?.domain ?? '',
    aliases: domains.filter((d) => d.is_primary !== 1).map((d) => d.domain),
    created_at: t.created_at,
  };
}

/** Tenants and their domains (as the SQLite store's `tenantRepo`); `create` takes a transaction's client. */
export function pgTenants(db: Queryable, atomically: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>) {
  return {
    /** A domain another tenant holds is a `UniqueViolation` of `domain`. */
    create: (primaryDomain: string, aliases: readonly string[] = []) =>
      guardUnique(
        atomically(async (tx) => {
          const now = nowIso();
          const { id } = (await one<{ id: number }>(tx, 'INSERT INTO tenants (created_at) VALUES ($1) RETURNING id', [now]))!;
          const primary = norm(primaryDomain);
          await tx.query('INSERT INTO tenant_domains (domain, tenant_id, is_primary, created_at) VALUES ($1, $2, 1, $3)', [primary, id, now]);
          for (const a of new Set(aliases.map(norm))) {
            if (a !== primary) await tx.query('INSERT INTO tenant_domains (domain, tenant_id, is_primary, created_at) VALUES ($1, $2, 0, $3)', [a, id, now]);
          }
          return (await tenantById(tx, id))!;
        }),
      ),
    addAlias: async (tenantId: number, domain: string) => {
      await db.query('INSERT INTO tenant_domains (domain, tenant_id, is_primary, created_at) VALUES ($1, $2, 0, $3)', [norm(domain), tenantId, nowIso()]);
    },
    byDomain: async (domain: string) => {
      const row = await one<{ tenant_id: number }>(db, 'SELECT tenant_id FROM tenant_domains WHERE domain = $1', [domain.trim().toLowerCase()]);
      return row ? tenantById(db, row.tenant_id) : undefined;
    },
    get: (id: number) => tenantById(db, id),
    list: async () => {
      const ids = await all<{ id: number }>(db, 'SELECT id FROM tenants ORDER BY id');
      return Promise.all(ids.map(async (t) => (await tenantById(db, t.id))!));
    },
  };
}

const KEY_COLUMNS = 'id, tenant_id, name, secret_hash, permissions, expires_at, revoked_at, created_at';

/** Access keys: only the SHA-256 digest of a secret is stored; `create` answers the secret once. */
export function pgKeys(db: Queryable) {
  const get = async (id: string): Promise<AccessKeyRecord | undefined> => {
    const r = await one<KeyRow>(db, `SELECT ${KEY_COLUMNS} FROM access_keys WHERE id = $1`, [id]);
    return r && toKeyRecord(r);
  };
  return {
    create: async (input: { tenant_id: number; name: string; permissions: readonly string[]; expires_at?: string | null }) => {
      const id = `ak_${randomBase62(24)}`;
      const secret = randomBase62(48);
      const expires = input.expires_at ? new Date(input.expires_at).toISOString() : null;
      await db.query(`INSERT INTO access_keys (${KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, NULL, $7)`, [
        id, input.tenant_id, input.name, sha256Hex(secret), JSON.stringify([...input.permissions]), expires, nowIso(),
      ]);
      return { record: (await get(id))!, secret };
    },
    get,
    list: async (tenantId?: number) =>
      (tenantId === undefined
        ? await all<KeyRow>(db, `SELECT ${KEY_COLUMNS} FROM access_keys ORDER BY created_at, id`)
        : await all<KeyRow>(db, `SELECT ${KEY_COLUMNS} FROM access_keys WHERE tenant_id = $1 ORDER BY created_at, id`, [tenantId])
      ).map(toKeyRecord),
    revoke: async (id: string) => ((await db.query('UPDATE access_keys SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2', [nowIso(), id])).rowCount ?? 0) > 0,
  };
}

/** Roles (case-sensitive names; creating one twice is a no-op) and departments of a tenant. */
export function pgRoles(db: Queryable) {
  return {
    create: async (tenantId: number, name: string) => {
      await db.query('INSERT INTO roles (tenant_id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, name) DO NOTHING', [tenantId, name, nowIso()]);
    },
    list: async (tenantId: number) => (await all<{ name: string }>(db, 'SELECT name FROM roles WHERE tenant_id = $1 ORDER BY id', [tenantId])).map((r) => r.name),
    exists: async (tenantId: number, name: string) => (await one(db, 'SELECT 1 FROM roles WHERE tenant_id = $1 AND name = $2', [tenantId, name])) !== undefined,
  };
}

export function pgDepartments(db: Queryable) {
  const columns = 'id, tenant_id, name';
  return {
    create: async (tenantId: number, name: string): Promise<DepartmentRecord> => {
      const now = nowIso();
      return (await one<DepartmentRecord>(db, `INSERT INTO departments (tenant_id, name, created_at, updated_at) VALUES ($1, $2, $3, $3) RETURNING ${columns}`, [tenantId, name, now]))!;
    },
    get: (tenantId: number, id: number) => one<DepartmentRecord>(db, `SELECT ${columns} FROM departments WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, [tenantId, id]),
    list: (tenantId: number) => all<DepartmentRecord>(db, `SELECT ${columns} FROM departments WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY id`, [tenantId]),
  };
}

/** The invitations outbox (decisions §11), oldest first, as the SQLite store's `invitationRepo` lists it; `createUser` writes it. */
const INVITATION_COLUMNS = 'id, tenant_id, user_id, email, created_at';

export function pgInvitations(db: Queryable) {
  return {
    list: (tenantId: number) => all<InvitationRecord>(db, `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE tenant_id = $1 ORDER BY id`, [tenantId]),
    insert: async (tenantId: number, input: { user_id: number; email: string; created_at?: string }) =>
      (await one<InvitationRecord>(
        db,
        `INSERT INTO invitations (tenant_id, user_id, email, created_at) VALUES ($1, $2, $3, $4) RETURNING ${INVITATION_COLUMNS}`,
        [tenantId, input.user_id, input.email, input.created_at ?? nowIso()],
      ))!,
  };
}
