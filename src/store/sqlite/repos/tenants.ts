import { type Db, immediate } from '../db.js';
import type { TenantRecord, TenantRepo } from '../../types.js';
import { nowIso } from '../../util.js';

interface DomainRow {
  domain: string;
  is_primary: number;
}

/** Tenants and their domains. Domains are stored lower-case; each belongs to one tenant. */
export function tenantRepo(db: Db, wrote: () => void): TenantRepo {
  const insertTenant = db.prepare('INSERT INTO tenants (created_at) VALUES (?)');
  const insertDomain = db.prepare('INSERT INTO tenant_domains (domain, tenant_id, is_primary, created_at) VALUES (?, ?, ?, ?)');
  const selectTenant = db.prepare('SELECT id, created_at FROM tenants WHERE id = ?');
  const selectAll = db.prepare('SELECT id, created_at FROM tenants ORDER BY id');
  const selectDomains = db.prepare('SELECT domain, is_primary FROM tenant_domains WHERE tenant_id = ? ORDER BY is_primary DESC, created_at, domain');
  const selectByDomain = db.prepare('SELECT tenant_id FROM tenant_domains WHERE domain = ?');

  const norm = (domain: string) => {
    const d = domain.trim().toLowerCase();
    if (!d) throw new Error('A domain must not be empty.');
    return d;
  };

  const get = (id: number): TenantRecord | undefined => {
    const t = selectTenant.get(id) as { id: number; created_at: string } | undefined;
    if (!t) return undefined;
    const domains = selectDomains.all(id) as DomainRow[];
    const primary = domains.find((d) => d.is_primary === 1);
    return {
      id: t.id,
      primary_domain: primary?.domain ?? '',
      aliases: domains.filter((d) => d.is_primary !== 1).map((d) => d.domain),
      created_at: t.created_at,
    };
  };

  return {
    create: immediate(db, (primaryDomain: string, aliases: readonly string[] = []) => {
      const now = nowIso();
      wrote();
      const id = Number(insertTenant.run(now).lastInsertRowid);
      insertDomain.run(norm(primaryDomain), id, 1, now);
      for (const a of new Set(aliases.map(norm))) if (a !== norm(primaryDomain)) insertDomain.run(a, id, 0, now);
      return get(id)!;
    }),
    addAlias(tenantId, domain) {
      wrote();
      insertDomain.run(norm(domain), tenantId, 0, nowIso());
    },
    byDomain(domain) {
      const row = selectByDomain.get(domain.trim().toLowerCase()) as { tenant_id: number } | undefined;
      return row ? get(row.tenant_id) : undefined;
    },
    get,
    list: () => (selectAll.all() as { id: number }[]).map((t) => get(t.id)!),
  };
}
