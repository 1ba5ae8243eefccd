import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conferenceSetup, type ConferenceFixture } from './conferences-fixture.js';

let f: ConferenceFixture;
beforeEach(() => {
  f = conferenceSetup();
});
afterEach(() => f.cleanup());

const body = (errors: Record<string, string[]>) => {
  const all = Object.values(errors).flat();
  const rest = all.length - 1;
  return { message: rest ? `${all[0]} (and ${rest} more error${rest === 1 ? '' : 's'})` : all[0], errors };
};

describe('integers beyond the safe range in bodies (decisions §10 message family)', () => {
  it('are "must be an integer", never a zod bound', async () => {
    const res = await f.call('PATCH', `/users/${f.ada.id}`, { body: '{"department_id": 100000000000000000000}' });
    expect([res.status, res.json()]).toEqual([400, body({ department_id: ['The department_id field must be an integer.'] })]);
    expect(f.store.users.get(f.tenant.id, f.ada.id)!.department_id).toBeNull();
  });

  it('keep the other messages of the attribute and of the body, in body order', async () => {
    const res = await f.call('POST', '/online_conferences', {
      body: '{"online_conference_account_id": -1e300, "public_id": "p", "title": "t", "is_public": true, "backer_event_id": 1e20}',
    });
    expect([res.status, res.json()]).toEqual([
      400,
      body({
        online_conference_account_id: ['The online_conference_account_id field must be an integer.'],
        backer_event_id: ['The backer_event_id field must be an integer.'],
      }),
    ]);
    const hours = { sunday: [{ start: { hour: 1e20, minute: 0, second: 0 }, end: { hour: 2, minute: 0, second: 0 } }], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
    const patch = await f.call('PATCH', `/users/${f.ada.id}`, { body: { work_hours: hours } });
    expect(patch.json().errors).toEqual({
      'work_hours.sunday.0.start.hour': ['The work_hours.sunday.0.start.hour field must be an integer.', 'The work_hours.sunday.0.start.hour field must be between 0 and 23.'],
    });
  });
});

describe('user timezone is any IANA name (decisions §7)', () => {
  it.each(['Asia/Kolkata', 'Europe/Kyiv', 'UTC', 'Etc/GMT+5', 'US/Eastern', 'America/Argentina/Buenos_Aires', 'Europe/Paris'])('accepts %s and stores it as sent', async (zone) => {
    const res = await f.call('PATCH', `/users/${f.ada.id}`, { body: { timezone: zone } });
    expect([res.status, res.json().data?.timezone]).toEqual([200, zone]);
    expect(f.store.users.get(f.tenant.id, f.ada.id)!.timezone).toBe(zone);
  });

  it.each(['Mars/Olympus', 'europe/paris', 'utc', '+05:00', 'Europe/', 'Factory', ''])('rejects %j', async (zone) => {
    const res = await f.call('PATCH', `/users/${f.ada.id}`, { body: { timezone: zone } });
    expect([res.status, res.json().errors]).toEqual([400, { timezone: ['The timezone field must be a valid timezone.'] }]);
    expect(f.store.users.get(f.tenant.id, f.ada.id)!.timezone).toBeNull();
  });
});
