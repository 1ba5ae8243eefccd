import { afterEach, describe, expect, it } from 'vitest';
import { conferenceSetup } from './conferences-fixture.js';
import { NO_HOURS } from './fixtures.js';

let f: ReturnType<typeof conferenceSetup>;
afterEach(() => f.cleanup());

const FULL_USER = { department_id: null, first_name: 'Ada', last_name: 'King', email: 'ada@acme.test', timezone: 'UTC', work_hours: NO_HOURS, role: 'Member' };
const FULL_CUSTOMER = { first_name: 'Dora', middle_name: null, last_name: 'Explorer', email: 'dora@client.test', contact_number: null, address: {} };

describe('serve --strict: the hosted complete-body rules', () => {
  it('the deletes take no body in either mode: a sent one is ignored, the rules are the same', async () => {
    f = conferenceSetup({ strict: true });
    const conf = f.conference();
    const [guest] = (await f.call('POST', `/online_conferences/${conf.id}/attendees`, { body: [{ email: 'g@x.test', name: 'G' }] })).json().data;
    const [[owner]] = f.store.attendees.listByConference(conf.id, { page_size: 10, page_number: 1 }).rows.map((a) => [a.id]);
    const refused = await f.call('DELETE', `/online_conferences/${conf.id}/attendees/${owner}`, { body: { force: true } });
    expect([refused.status, refused.body]).toEqual([409, 'Cannot remove the owner of the online conference.']);
    const removed = await f.call('DELETE', `/online_conferences/${conf.id}/attendees/${guest.id}`, { body: 'not json' });
    expect(removed.status, removed.body).toBe(200);
    const deleted = await f.call('DELETE', `/online_conferences/${conf.id}`, { body: {} });
    expect(deleted.status, deleted.body).toBe(200);
    expect(deleted.json().data.deleted_at).not.toBeNull();
  });

  it('PATCH /users/{id} needs all seven fields; only department_id may be null', async () => {
    f = conferenceSetup({ strict: true });
    const before = f.store.users.get(f.tenant.id, f.ada.id);
    const partial = await f.call('PATCH', `/users/${f.ada.id}`, { body: { first_name: 'Ada', timezone: null, role: 'Nope' } });
    expect(partial.status).toBe(400);
    expect(partial.json()).toEqual({
      message: 'The department_id field is required. (and 5 more errors)',
      errors: {
        department_id: ['The department_id field is required.'],
        last_name: ['The last_name field is required.'],
        email: ['The email field is required.'],
        timezone: ['The timezone field is required.'],
        work_hours: ['The work_hours field is required.'],
        role: ['The selected role is invalid.'],
      },
    });
    expect(f.store.users.get(f.tenant.id, f.ada.id)).toEqual(before);
    const nulls = await f.call('PATCH', `/users/${f.ada.id}`, { body: { ...FULL_USER, work_hours: null, role: null } });
    expect(nulls.json().errors).toEqual({ work_hours: ['The work_hours field is required.'], role: ['The role field is required.'] });

    const ok = await f.call('PATCH', `/users/${f.ada.id}`, { body: FULL_USER });
    expect(ok.status, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ last_name: 'King', department_id: null, role: 'Member', timezone: 'UTC' });
    expect(f.store.users.get(f.tenant.id, f.ada.id)).toMatchObject({ last_name: 'King', role: 'Member' });
  });

  it('PATCH /online_conferences/{id} needs title and is_public', async () => {
    f = conferenceSetup({ strict: true });
    const conf = f.conference();
    const res = await f.call('PATCH', `/online_conferences/${conf.id}`, { body: {} });
    expect([res.status, res.json()]).toEqual([400, {
      message: 'The title field is required. (and 1 more error)',
      errors: { title: ['The title field is required.'], is_public: ['The is_public field is required.'] },
    }]);
    const nullTitle = await f.call('PATCH', `/online_conferences/${conf.id}`, { body: { title: null, is_public: true } });
    expect(nullTitle.json().errors).toEqual({ title: ['The title field is required.'] });
    const ok = await f.call('PATCH', `/online_conferences/${conf.id}`, { body: { title: 'Renamed', is_public: true } });
    expect([ok.status, ok.json().data.title, ok.json().data.is_public]).toEqual([200, 'Renamed', true]);
  });

  it('POST /customers needs all six keys, the nullable ones may be null', async () => {
    f = conferenceSetup({ strict: true });
    const count = async () => (await f.call('GET', '/customers')).json().total;
    const before = await count();
    const res = await f.call('POST', '/customers', { body: { first_name: 'Dora', last_name: 'Explorer', email: 'dora@client.test' } });
    expect([res.status, res.json()]).toEqual([400, {
      message: 'The middle_name field is required. (and 2 more errors)',
      errors: {
        middle_name: ['The middle_name field is required.'],
        contact_number: ['The contact_number field is required.'],
        address: ['The address field is required.'],
      },
    }]);
    expect(await count()).toBe(before);
    const ok = await f.call('POST', '/customers', { body: FULL_CUSTOMER });
    expect([ok.status, ok.json().data.email]).toEqual([200, 'dora@client.test']);
    expect(await count()).toBe(before + 1);
  });

  it('leaves the other writes as they are (PATCH /customers/{id} stays partial)', async () => {
    f = conferenceSetup({ strict: true });
    const res = await f.call('PATCH', `/customers/${f.cleo.id}`, { body: { middle_name: 'M' } });
    expect([res.status, res.json().data.middle_name]).toEqual([200, 'M']);
  });
});

describe('the default (lenient) server', () => {
  it('accepts the partial bodies strict mode rejects', async () => {
    f = conferenceSetup();
    const user = await f.call('PATCH', `/users/${f.ada.id}`, { body: { last_name: 'King' } });
    expect([user.status, user.json().data.last_name]).toEqual([200, 'King']);
    const conf = await f.call('PATCH', `/online_conferences/${f.conference().id}`, { body: {} });
    expect(conf.status).toBe(200);
    const customer = await f.call('POST', '/customers', { body: { first_name: 'Dora', last_name: 'Explorer', email: 'dora@client.test' } });
    expect([customer.status, customer.json().data.middle_name, customer.json().data.address]).toEqual([200, null, null]);
  });
});
