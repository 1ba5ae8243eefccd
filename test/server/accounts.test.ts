import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conferenceSetup, type ConferenceFixture } from './conferences-fixture.js';

let f: ConferenceFixture;
beforeEach(() => (f = conferenceSetup()));
afterEach(() => f.cleanup());

describe('GET /users/{id}/online_conference_accounts', () => {
  it('pages the user’s own accounts by id', async () => {
    const more = [2, 3].map((n) => f.store.conferenceAccounts.insert(f.tenant.id, { owner_type: 'User', owner_id: f.ada.id, name: `Room ${n}` }));
    f.store.conferenceAccounts.insert(f.tenant.id, { owner_type: 'User', owner_id: f.bob.id, name: 'Bob room' });
    f.store.conferenceAccounts.insert(f.tenant.id, { owner_type: 'Customer', owner_id: f.ada.id, name: 'Same id, customer' });
    const first = await f.call('GET', `/users/${f.ada.id}/online_conference_accounts?page_size=2`);
    expect(first.status).toBe(200);
    expect(first.json()).toMatchObject({ data: [f.account, more[0]], total: 3, last_page: 2, current_page: 1, from: 1, to: 2 });
    const second = (await f.call('GET', first.json().next_page_url.replace('http://localhost/api/public/v2.0', ''))).json();
    expect(second).toMatchObject({ data: [more[1]], current_page: 2, next_page_url: null });
  });

  it('answers an empty page for a user without accounts, 404 for an absent or deleted user', async () => {
    expect((await f.call('GET', `/users/${f.bob.id}/online_conference_accounts`)).json()).toMatchObject({ data: [], total: 0, from: null });
    expect((await f.call('GET', '/users/9999/online_conference_accounts')).status).toBe(404);
    expect((await f.call('GET', `/users/${f.bob.id + 1}/online_conference_accounts`)).status).toBe(404);
  });
});

describe('GET /users/{id}/connected_accounts', () => {
  it('pages the user’s connected accounts by id', async () => {
    const zoom = f.store.providers.ensure('zoom');
    const rows = [1, 2, 3].map((n) =>
      f.store.connectedAccounts.insert(f.tenant.id, { owner_type: 'User', owner_id: f.bob.id, provider_id: zoom.id, provider_uid: `u${n}`, provider_email: 'bob@acme.test' }),
    );
    const res = await f.call('GET', `/users/${f.bob.id}/connected_accounts?per_page=2&page=2`);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ data: [rows[2]], total: 3, current_page: 2, per_page: 2, from: 3, to: 3 });
    expect(res.json().prev_page_url).toBe(`http://localhost/api/public/v2.0/users/${f.bob.id}/connected_accounts?page_number=1&page_size=2`);
    expect((await f.call('GET', `/users/${f.ada.id}/connected_accounts`)).json().total).toBe(0);
  });

  it('answers 404 for an absent user and 400 for a bad page number', async () => {
    expect((await f.call('GET', '/users/9999/connected_accounts')).status).toBe(404);
    expect((await f.call('GET', `/users/${f.bob.id}/connected_accounts?page_number=0`)).status).toBe(400);
  });
});
