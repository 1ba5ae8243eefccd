import { describe, expect, it } from 'vitest';
import { createTenantSteps } from '../../../src/local/init.js';
import type { DataStore } from '../../../src/store/port.js';
import { ask, type Steps } from '../../../src/store/steps.js';
import type { TenantRecord } from '../../../src/store/types.js';
import { eachStore, type StoreFactory } from './fixtures.js';

/** A tenant with its roles, then a failure: nothing of it may stay. */
function* tenantThenFailure(domain: string): Steps<TenantRecord> {
  const tenant = yield* createTenantSteps(domain);
  yield* ask(() => {
    throw new Error('injected failure');
  });
  return tenant;
}

/** `DataStore.atomic`: a unit written as steps runs all or nothing, and a dry run answers without writing. */
export function atomicContract(factory: StoreFactory) {
  describe(`${factory.name}: atomic units`, () => {
    let store: DataStore;
    eachStore(factory, (s) => {
      store = s;
    });
    const domains = async () => (await store.tenants.list()).map((t) => t.primary_domain);

    it('commits every step of a unit', async () => {
      const before = await domains();
      const tenant = await store.atomic(createTenantSteps('atomic.test', ['www.atomic.test']));
      expect(tenant).toMatchObject({ primary_domain: 'atomic.test', aliases: ['www.atomic.test'] });
      expect(await domains()).toEqual([...before, 'atomic.test']);
      expect(await store.roles.list(tenant.id)).toEqual(['Admin', 'Manager', 'Member']);
    });

    it('rolls back every step when one fails', async () => {
      const before = await domains();
      await expect(Promise.resolve().then(() => store.atomic(tenantThenFailure('failed.test')))).rejects.toThrow('injected failure');
      expect(await domains()).toEqual(before);
      expect(await store.tenants.byDomain('failed.test')).toBeUndefined();
    });

    it('a dry run answers what the unit would answer and writes nothing', async () => {
      const before = await domains();
      const tenant = await store.atomic(createTenantSteps('dry.test'), { dryRun: true, locks: ['dry'] });
      expect(tenant).toMatchObject({ primary_domain: 'dry.test', aliases: [] });
      expect(await domains()).toEqual(before);
      expect(await store.tenants.byDomain('dry.test')).toBeUndefined();
    });
  });
}
