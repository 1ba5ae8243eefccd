import { afterEach, describe, expect, it } from 'vitest';
import { setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(() => f.store.close());

/** A request body as raw JSON text, so escapes such as `\ud800` reach the server as written. */
const raw = (json: string) => Buffer.from(json, 'utf8');

const customerCount = () =>
  f.store.customers.list(f.tenant.id, { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc', filter: null }).total;

describe('text with NUL or a lone UTF-16 surrogate', () => {
  it('is refused on create, field by field, and nothing is stored', async () => {
    f = setup();
    const res = await f.call('POST', '/customers', {
      body: raw('{"first_name":"A\\u0000da","middle_name":"\\ud800","last_name":"L\\udc00","email":"a\\u0000@b.test","address":{"city":"x\\ud83d"}}'),
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      message: 'The first_name field format is invalid. (and 4 more errors)',
      errors: {
        first_name: ['The first_name field format is invalid.'],
        middle_name: ['The middle_name field format is invalid.'],
        last_name: ['The last_name field format is invalid.'],
        email: ['The email field format is invalid.'],
        'address.city': ['The address.city field format is invalid.'],
      },
    });
    expect(customerCount()).toBe(0);
  });

  it('is refused on update and leaves the row as it was', async () => {
    f = setup();
    const user = f.store.users.insert(f.tenant.id, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test' });
    const res = await f.call('PATCH', `/users/${user.id}`, { body: raw('{"last_name":"\\ud800","timezone":"UTC\\u0000"}') });
    expect(res.status).toBe(400);
    expect(res.json().errors).toEqual({ last_name: ['The last_name field format is invalid.'], timezone: ['The timezone field format is invalid.'] });
    expect(f.store.users.get(f.tenant.id, user.id)).toMatchObject({ last_name: 'Lovelace', timezone: user.timezone });
  });

  it('is refused in array bodies and list filters too', async () => {
    f = setup();
    const list = await f.call('GET', '/customers?filter_attribute=first_name&filter_value=a%00b');
    expect([list.status, list.json().errors]).toEqual([400, { filter_value: ['The filter_value field format is invalid.'] }]);
    const conf = await f.call('POST', '/online_conferences', {
      body: raw('{"online_conference_account_id":1,"public_id":"w","title":"T\\u0000","is_public":false,"online_conference_attendees":[{"email":"x@y.test","name":"\\udfff"}]}'),
    });
    expect(conf.status).toBe(400);
    expect(conf.json().errors).toMatchObject({
      title: ['The title field format is invalid.'],
      'online_conference_attendees.0.name': ['The online_conference_attendees.0.name field format is invalid.'],
    });
  });

  it('is refused when sent as raw bytes (an encoded surrogate, an invalid byte), not stored as U+FFFD', async () => {
    f = setup();
    const body = Buffer.concat([
      Buffer.from('{"first_name":"A'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('","last_name":"L'),
      Buffer.from([0xff]),
      Buffer.from('","email":"a@b.test","middle_name":"\ufffd kept"}'),
    ]);
    const res = await f.call('POST', '/customers', { body });
    expect([res.status, res.json().errors]).toEqual([
      400,
      { first_name: ['The first_name field format is invalid.'], last_name: ['The last_name field format is invalid.'] },
    ]);
    expect(customerCount()).toBe(0);
    const outside = await f.call('POST', '/customers', { body: Buffer.concat([Buffer.from('{"first_name":"A"'), Buffer.from([0xff]), Buffer.from('}')]) });
    expect([outside.status, outside.json().errors]).toEqual([400, { body: ['The request body must be valid JSON.'] }]);
    const replacement = await f.call('POST', '/customers', { body: raw('{"first_name":"\ufffd","last_name":"L","email":"r@b.test"}') });
    expect(replacement.status).toBe(200); // a real U+FFFD is ordinary text
    expect(f.store.customers.get(f.tenant.id, replacement.json().data.id)!.first_name).toBe('\ufffd');
  });

  it('accepts well-formed text outside the BMP (a surrogate pair) and stores it exactly', async () => {
    f = setup();
    const res = await f.call('POST', '/customers', { body: raw('{"first_name":"\\ud83d\\ude00 Ada","last_name":"Lo\\u00efc","email":"a@b.test"}') });
    expect(res.status).toBe(200);
    const stored = f.store.customers.get(f.tenant.id, res.json().data.id)!;
    expect([stored.first_name, stored.last_name]).toEqual(['\u{1F600} Ada', 'Loïc']);
  });
});
