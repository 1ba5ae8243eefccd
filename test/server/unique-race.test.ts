import { afterEach, describe, expect, it } from 'vitest';
import { HANDLERS } from '../../src/server/index.js';
import { type Fixture, NO_HOURS, setup } from './fixtures.js';

/**
 * The email check runs before the write; a writer in another process can still get there in
 * between. The store's unique index then stops the write, and the answer is the same 400 the
 * check would have given, not a 500.
 */
describe('a uniqueness clash at write time', () => {
  let f: Fixture;
  afterEach(() => f?.store.close());

  it('answers 400 "has already been taken" and stores nothing', async () => {
    f = setup({}, {
      ...HANDLERS,
      createCustomer: {
        ...HANDLERS.createCustomer!,
        // Another process inserts the same email after validation, just before this write.
        run: (ctx) => {
          f.store.customers.insert(ctx.tenant.id, { first_name: 'Other', last_name: 'Writer', email: 'race@example.com' });
          return HANDLERS.createCustomer!.run(ctx);
        },
      },
    });
    const r = await f.call('POST', '/customers', { body: { first_name: 'Ada', last_name: 'L', email: 'race@example.com' } });
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({ message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
    const rows = f.store.customers.list(f.tenant.id, { page_size: 10, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).rows;
    expect(rows.map((c) => c.first_name)).toEqual(['Other']);
  });

  it('a user create: the same 400 from the check under the write lock, and no user or invitation stored', async () => {
    f = setup({}, {
      ...HANDLERS,
      createUser: {
        ...HANDLERS.createUser!,
        run: (ctx) => {
          f.store.users.insert(ctx.tenant.id, { first_name: 'Other', last_name: 'Writer', email: 'RACE@example.com' });
          return HANDLERS.createUser!.run(ctx);
        },
      },
    });
    const body = { department_id: null, first_name: 'Ada', last_name: 'L', email: 'race@example.com', timezone: 'UTC', work_hours: NO_HOURS, role: 'Member' };
    const r = await f.call('POST', '/users', { body });
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({ message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
    const rows = f.store.users.list(f.tenant.id, { page_size: 10, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).rows;
    expect(rows.map((u) => u.first_name)).toEqual(['Other']);
    expect(f.store.invitations.list(f.tenant.id)).toEqual([]);
  });
});
