import { describe, expect, it } from 'vitest';
import type { DataStore } from '../../../src/store/port.js';
import { eachStore, type StoreFactory } from './fixtures.js';

const RULE = { method: 'POST' as const, path: '/customers', status: 503, rate: 1, latency_ms: null, times: null, seed: 0, tenant_id: null };

/**
 * Injected fault rules (issue 25): what `admin faults` writes and `serve` counts, the same on
 * every store. Where a second store can share the database (another process or instance), the
 * times of a rule are taken by both at once and never more than it has.
 */
export function faultContract(factory: StoreFactory) {
  describe(`${factory.name}: fault rules`, () => {
    let store: DataStore;
    eachStore(factory, (s) => {
      store = s;
    });

    it('adds, lists in id order, gets, removes and clears rules', async () => {
      const tenant = (await store.tenants.create('a.example')).id;
      const one = await store.faults.add(RULE);
      const two = await store.faults.add({ ...RULE, method: '*', path: '/users/{user_id}', status: null, rate: 0.25, latency_ms: 1500, times: 3, seed: 4294967295, tenant_id: tenant });
      expect(one).toEqual({ ...RULE, id: one.id, matched: 0, remaining: null, created_at: expect.stringMatching(/Z$/) });
      expect(two).toMatchObject({ method: '*', status: null, rate: 0.25, latency_ms: 1500, times: 3, remaining: 3, seed: 4294967295, tenant_id: tenant, matched: 0 });
      expect(two.id).toBeGreaterThan(one.id);
      expect(await store.faults.list()).toEqual([one, two]);
      expect(await store.faults.get(two.id)).toEqual(two);
      expect(await store.faults.remove(one.id)).toBe(true);
      expect(await store.faults.remove(one.id)).toBe(false);
      expect(await store.faults.get(one.id)).toBeUndefined();
      await store.faults.add(RULE);
      expect(await store.faults.clear()).toBe(2);
      expect(await store.faults.list()).toEqual([]);
    });

    it('counts matches, spends times down to zero, and then counts nothing', async () => {
      const endless = await store.faults.add(RULE);
      expect(await store.faults.count(endless.id, false)).toEqual({ matched: 1, remaining: null });
      expect(await store.faults.count(endless.id, false)).toEqual({ matched: 2, remaining: null });
      expect(await store.faults.spend(endless.id)).toBe(false);

      const twice = await store.faults.add({ ...RULE, times: 2 });
      expect(await store.faults.count(twice.id, true)).toEqual({ matched: 1, remaining: 1 });
      expect(await store.faults.count(twice.id, false)).toEqual({ matched: 2, remaining: 1 });
      expect(await store.faults.spend(twice.id)).toBe(true);
      expect(await store.faults.spend(twice.id)).toBe(false);
      expect(await store.faults.count(twice.id, true)).toBeUndefined();
      expect(await store.faults.get(twice.id)).toMatchObject({ matched: 2, remaining: 0 });
      expect(await store.faults.count(9999, false)).toBeUndefined();
    });

    it('moves the token when rules are added or removed, not when matches are counted', async () => {
      const t0 = await store.faults.token();
      const rule = await store.faults.add({ ...RULE, times: 5 });
      const t1 = await store.faults.token();
      expect(t1).not.toBe(t0);
      await store.faults.count(rule.id, true);
      await store.faults.spend(rule.id);
      expect(await store.faults.token()).toBe(t1);
      await store.faults.remove(rule.id);
      expect(await store.faults.token()).not.toBe(t1);
    });

    it.runIf(factory.attach)('gives out a rule’s times once across stores sharing the database', async () => {
      const other = await factory.attach!(store);
      try {
        const rule = await store.faults.add({ ...RULE, times: 5 });
        const seen = await other.faults.token();
        const taken = await Promise.all(Array.from({ length: 12 }, (_, i) => ((i % 2 ? store : other).faults.count(rule.id, true))));
        expect(taken.filter(Boolean)).toHaveLength(5);
        expect(taken.filter(Boolean).map((t) => t!.remaining).sort()).toEqual([0, 1, 2, 3, 4]);
        expect(await other.faults.get(rule.id)).toMatchObject({ matched: 5, remaining: 0 });
        // The other store sees rules removed there from its next read of the token.
        await store.faults.clear();
        expect(await other.faults.token()).not.toBe(seen);
      } finally {
        await other.close();
      }
    });
  });
}
