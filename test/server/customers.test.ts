import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(() => f.store.close());
beforeEach(() => {
  f = setup();
});

const ADDRESS = {
  line_1: '1 Main St', line_2: null, city: 'Berlin', region: 'BE', region_code: 'BE',
  country: 'Germany', country_code: 'DE', postal_code: '10115',
};
const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test' };
const count = () => f.store.customers.list(f.tenant.id, { page_size: 100, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).total;

describe('POST /customers', () => {
  it('creates a customer and answers it with 200', async () => {
    const res = await f.call('POST', '/customers', { body: { ...ada, middle_name: 'King', contact_number: '+441234567890', address: ADDRESS } });
    expect(res.status).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Success.');
    expect(data).toMatchObject({ ...ada, middle_name: 'King', contact_number: '+441234567890', address: ADDRESS, name: 'Ada King Lovelace', deleted_at: null });
    expect(f.store.customers.get(f.tenant.id, data.id)).toEqual(data);
  });

  it('creates with only the required fields', async () => {
    const res = await f.call('POST', '/customers', { body: ada });
    expect(res.json().data).toMatchObject({ ...ada, middle_name: null, contact_number: null, address: null, name: 'Ada Lovelace' });
  });

  describe('validation', () => {
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ ...ada, first_name: undefined }, { first_name: ['The first_name field is required.'] }],
      [{ ...ada, last_name: '' }, { last_name: ['The last_name field is required.'] }],
      [{ ...ada, email: null }, { email: ['The email field is required.'] }],
      [{ ...ada, first_name: 42 }, { first_name: ['The first_name field must be a string.'] }],
      [{ ...ada, middle_name: 'm'.repeat(256) }, { middle_name: ['The middle_name field must not be greater than 255 characters.'] }],
      [{ ...ada, first_name: 'f'.repeat(256) }, { first_name: ['The first_name field must not be greater than 255 characters.'] }],
      [{ ...ada, last_name: 'l'.repeat(256) }, { last_name: ['The last_name field must not be greater than 255 characters.'] }],
      [{ ...ada, email: `${'e'.repeat(250)}@x.test` }, { email: ['The email field must not be greater than 255 characters.'] }],
      [{ ...ada, email: 'ada at acme' }, { email: ['The email field must be a valid email address.'] }],
      [{ ...ada, contact_number: '0301234567' }, { contact_number: ['The contact_number field format is invalid.'] }],
      [{ ...ada, contact_number: '+1234567' }, { contact_number: ['The contact_number field format is invalid.'] }],
      [{ ...ada, contact_number: '+1234567890123456' }, { contact_number: ['The contact_number field format is invalid.'] }],
      [{ ...ada, address: { city: 5 } }, { 'address.city': ['The address.city field must be a string.'] }],
      [{ ...ada, address: 'Berlin' }, { address: ['The address field must be an array.'] }],
    ];
    it.each(cases)('%j', async (body, errors) => {
      const res = await f.call('POST', '/customers', { body });
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ message: Object.values(errors)[0][0], errors });
      expect(count()).toBe(0);
    });

    it('accepts E.164 numbers of 8 to 15 digits', async () => {
      expect((await f.call('POST', '/customers', { body: { ...ada, contact_number: '+12345678' } })).status).toBe(200);
      expect((await f.call('POST', '/customers', { body: { ...ada, email: 'b@acme.test', contact_number: '+123456789012345' } })).status).toBe(200);
    });

    it('rejects an email taken by a live customer of the tenant, ignoring case and deleted rows', async () => {
      f.store.customers.insert(f.tenant.id, { ...ada, email: 'gone@acme.test', deleted_at: '2024-01-01T00:00:00.000Z' });
      f.store.customers.insert(f.other.id, { ...ada, email: 'theirs@acme.test' });
      f.store.customers.insert(f.tenant.id, ada);
      const res = await f.call('POST', '/customers', { body: { ...ada, email: 'ADA@ACME.test' } });
      expect(res.json()).toEqual({ message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
      expect((await f.call('POST', '/customers', { body: { ...ada, email: 'gone@acme.test' } })).status).toBe(200);
      expect((await f.call('POST', '/customers', { body: { ...ada, email: 'theirs@acme.test' } })).status).toBe(200);
    });

    it('asks about the e-mail only beside another failing field: alone, the unique index refuses it and nothing is written', async () => {
      const asked = vi.spyOn(f.store.customers, 'emailTaken');
      expect((await f.call('POST', '/customers', { body: ada })).status).toBe(200);
      const res = await f.call('POST', '/customers', { body: { ...ada, email: 'Ada@Acme.TEST' } });
      expect([res.status, res.json()]).toEqual([400, { message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } }]);
      expect(asked).not.toHaveBeenCalled();
      expect(count()).toBe(1);
      expect((await f.call('POST', '/customers', { body: { ...ada, last_name: '' } })).json().errors).toEqual({
        last_name: ['The last_name field is required.'],
        email: ['The email has already been taken.'],
      });
      expect(asked).toHaveBeenCalledTimes(1);
      expect(count()).toBe(1);
    });

    it('reports every failing field in body order with the count of the rest', async () => {
      f.store.customers.insert(f.tenant.id, ada);
      const res = await f.call('POST', '/customers', { body: { contact_number: 'x', email: 'ada@acme.test', last_name: '' } });
      expect(res.json()).toEqual({
        message: 'The first_name field is required. (and 3 more errors)',
        errors: {
          first_name: ['The first_name field is required.'],
          last_name: ['The last_name field is required.'],
          email: ['The email has already been taken.'],
          contact_number: ['The contact_number field format is invalid.'],
        },
      });
    });

    it('requires an object body', async () => {
      const res = await f.call('POST', '/customers', { body: [ada] });
      expect(res.status).toBe(400);
    });
  });
});

describe('GET /customers/{customer_id}', () => {
  it('answers the customer, 404 for absent, deleted or foreign ones', async () => {
    const c = f.store.customers.insert(f.tenant.id, ada);
    expect((await f.call('GET', `/customers/${c.id}`)).json()).toEqual({ message: 'Success.', data: c });
    const gone = f.store.customers.insert(f.tenant.id, { ...ada, email: 'g@x.test', deleted_at: '2024-01-01T00:00:00.000Z' });
    const foreign = f.store.customers.insert(f.other.id, ada);
    for (const id of [gone.id, foreign.id, 12345]) {
      const res = await f.call('GET', `/customers/${id}`);
      expect([res.status, res.body]).toEqual([404, 'Resource object does not exist.']);
    }
  });
});

describe('PATCH /customers/{customer_id}', () => {
  it('changes only the fields sent; null clears; a sent address replaces the whole address', async () => {
    const c = f.store.customers.insert(f.tenant.id, { ...ada, middle_name: 'K', contact_number: '+441234567890', address: ADDRESS });
    const res = await f.call('PATCH', `/customers/${c.id}`, { body: { middle_name: null, address: { city: 'Paris' } } });
    expect(res.status).toBe(200);
    const after = f.store.customers.get(f.tenant.id, c.id)!;
    expect(res.json().data).toEqual(after);
    expect(after).toMatchObject({ first_name: 'Ada', middle_name: null, contact_number: '+441234567890', name: 'Ada Lovelace' });
    expect(after.address).toEqual({ line_1: null, line_2: null, city: 'Paris', region: null, region_code: null, country: null, country_code: null, postal_code: null });
    await f.call('PATCH', `/customers/${c.id}`, { body: { address: null, contact_number: null } });
    expect(f.store.customers.get(f.tenant.id, c.id)).toMatchObject({ address: null, contact_number: null });
  });

  it('is a no-op for an empty body', async () => {
    const c = f.store.customers.insert(f.tenant.id, ada);
    const res = await f.call('PATCH', `/customers/${c.id}`, { body: {} });
    expect(res.json()).toEqual({ message: 'Success.', data: c });
    expect(f.store.customers.get(f.tenant.id, c.id)).toEqual(c);
  });

  it('leaves the row unchanged when validation fails', async () => {
    const c = f.store.customers.insert(f.tenant.id, ada);
    f.store.customers.insert(f.tenant.id, { ...ada, email: 'bob@acme.test' });
    const res = await f.call('PATCH', `/customers/${c.id}`, { body: { first_name: 'New', email: 'Bob@acme.test' } });
    expect(res.json()).toEqual({ message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] } });
    expect(f.store.customers.get(f.tenant.id, c.id)).toEqual(c);
    expect((await f.call('PATCH', `/customers/${c.id}`, { body: { email: 'ADA@acme.test' } })).status).toBe(200);
  });

  it('validates before existence; answers 404 for a foreign customer and leaves it alone', async () => {
    const foreign = f.store.customers.insert(f.other.id, ada);
    expect((await f.call('PATCH', `/customers/${foreign.id}`, { body: { email: 'x' } })).status).toBe(400);
    const res = await f.call('PATCH', `/customers/${foreign.id}`, { body: { first_name: 'Hacked' } });
    expect([res.status, res.body]).toEqual([404, 'Resource object does not exist.']);
    expect(f.store.customers.get(f.other.id, foreign.id)).toEqual(foreign);
  });
});

describe('GET /customers', () => {
  let ids: number[];
  beforeEach(() => {
    const t = f.tenant.id;
    ids = [
      f.store.customers.insert(t, { ...ada, address: ADDRESS, contact_number: '+4930000000' }).id,
      f.store.customers.insert(t, { first_name: 'Bea', middle_name: '50%', last_name: 'Off', email: 'bea@x.test', address: { city: 'Paris', country: 'France' } }).id,
      f.store.customers.insert(t, { first_name: 'Cy', middle_name: '5_0', last_name: 'Z', email: 'cy@x.test', address: { country: 'France' } }).id,
      f.store.customers.insert(t, { first_name: 'Di', middle_name: '500', last_name: 'Z', email: 'di@x.test', deleted_at: '2024-01-01T00:00:00.000Z' }).id,
    ];
  });
  const list = async (query: string) => {
    const res = await f.call('GET', `/customers?${query}`);
    expect(res.status, res.body).toBe(200);
    return res.json();
  };
  const got = async (query: string) => (await list(query)).data.map((c: { id: number }) => ids.indexOf(c.id) + 1);

  it('filters plain and derived text attributes', async () => {
    expect(await got('filter_attribute=middle_name&filter_operator=Contains&filter_value=%25')).toEqual([2]);
    expect(await got('filter_attribute=middle_name&filter_operator=Contains&filter_value=_')).toEqual([3]);
    expect(await got('filter_attribute=middle_name&filter_operator=IsNull')).toEqual([1]);
    expect(await got('filter_attribute=city_country&filter_value=paris, france')).toEqual([2]);
    expect(await got('filter_attribute=city_country&filter_value=France')).toEqual([3]);
    expect(await got('filter_attribute=address&filter_operator=Contains&filter_value=main st, berlin')).toEqual([1]);
    expect(await got('filter_attribute=address&filter_operator=IsNull')).toEqual([]);
    expect(await got('filter_attribute=contact_number&filter_operator=NotNull')).toEqual([1]);
    expect(await got('filter_attribute=middle_name&filter_value=500&with_trashed=1')).toEqual([4]);
  });

  it('orders by derived attributes with nulls first and ties by id', async () => {
    expect(await got('order_by=city_country')).toEqual([1, 3, 2]);
    expect(await got('order_by=last_name&order_direction=desc')).toEqual([3, 2, 1]);
    expect(await got('order_by=last_name&order_direction=desc&with_trashed=true')).toEqual([4, 3, 2, 1]);
  });

  it('paginates with canonical URLs', async () => {
    const page = await list('per_page=2&page=2&order_by=first_name');
    expect(page).toMatchObject({
      current_page: 2, per_page: 2, from: 3, to: 3, total: 3, last_page: 2, next_page_url: null,
      prev_page_url: `http://localhost${API}/customers?order_by=first_name&page_number=1&page_size=2`,
    });
  });
});
