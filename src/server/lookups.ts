import type { Awaitable, ServiceStore } from '../store/port.js';
import type { AccessKeyRecord, TenantRecord } from '../store/types.js';

/** A stored key with its secret's digest decoded once (null when the stored digest is malformed). */
export interface KnownKey {
  record: AccessKeyRecord;
  digest: Buffer | null;
}

/** Most tenants (by domain) and keys held; past it the cache starts over, so it never grows beyond. */
export const MAX_CACHED_TENANTS = 1024;
export const MAX_CACHED_KEYS = 10_000;

const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/**
 * The tenant-by-domain and key-by-id lookups every request makes, served from memory while the
 * store's `tenancyToken()` stays the same. `refresh()` (once per request, before any lookup)
 * drops both caches when the token moved, so a key revoked or a tenant added by another process
 * (`admin`) takes effect on the very next request. Only rows that exist are cached: a flood of
 * made-up key ids or Host names reaches the store each time but never grows the cache.
 * Answers stay synchronous while the store's are (SQLite), and are promises otherwise.
 */
export class StoreLookups {
  private token = '';
  private readonly tenants = new Map<string, TenantRecord>();
  private readonly keys = new Map<string, KnownKey>();

  constructor(private readonly store: ServiceStore) {}

  /** Drops everything cached when the store changed since the last call. */
  refresh(): Awaitable<void> {
    return andThen(this.store.tenancyToken(), (token) => {
      if (token !== this.token) {
        this.tenants.clear();
        this.keys.clear();
        this.token = token;
      }
    });
  }

  /** How many tenants and keys are held now (for tests and diagnostics). */
  sizes(): { tenants: number; keys: number } {
    return { tenants: this.tenants.size, keys: this.keys.size };
  }

  /** The tenant a lower-case host name belongs to. */
  tenantByDomain(domain: string): Awaitable<TenantRecord | undefined> {
    const cached = this.tenants.get(domain);
    if (cached) return cached;
    return andThen(this.store.tenants.byDomain(domain), (tenant) => {
      if (tenant) remember(this.tenants, domain, tenant, MAX_CACHED_TENANTS);
      return tenant;
    });
  }

  /** The key stored under `id`, any tenant's, revoked and expired ones included. */
  key(id: string): Awaitable<KnownKey | undefined> {
    const cached = this.keys.get(id);
    if (cached) return cached;
    return andThen(this.store.keys.get(id), (record) => {
      if (!record) return undefined;
      const known = { record, digest: HEX_DIGEST.test(record.secret_hash) ? Buffer.from(record.secret_hash, 'hex') : null };
      remember(this.keys, id, known, MAX_CACHED_KEYS);
      return known;
    });
  }
}

/** `f` of the value, synchronously when it is not a promise. */
function andThen<T, U>(value: Awaitable<T>, f: (value: T) => U): Awaitable<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  if (map.size >= max) map.clear();
  map.set(key, value);
}
