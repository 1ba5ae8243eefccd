import { describe, expect, it } from 'vitest';
import { ConferenceCreateBody, CustomerCreateBody, isTimezone, RecordingUrlQuery, UserUpdateBody } from '../../src/contract/bodies.js';
import { DAYS } from '../../src/contract/resources.js';
import { parseWith } from '../../src/contract/validation.js';

const t = (hour: number, minute = 0, second = 0) => ({ hour, minute, second });
const week = (extra: Record<string, unknown> = {}) => ({ ...Object.fromEntries(DAYS.map((d) => [d, []])), ...extra });

describe('request bodies', () => {
  it('customers need first_name, last_name and email; contact_number is E.164', () => {
    const r = parseWith(CustomerCreateBody, { contact_number: '0049301234' });
    expect(!r.ok && r.errors).toEqual({
      first_name: ['The first_name field is required.'],
      last_name: ['The last_name field is required.'],
      email: ['The email field is required.'],
      contact_number: ['The contact_number field format is invalid.'],
    });
    expect(parseWith(CustomerCreateBody, { first_name: 'A', last_name: 'B', email: 'a@b.co', contact_number: '+4930123456' }).ok).toBe(true);
    expect(parseWith(CustomerCreateBody, { first_name: 'A', last_name: 'B', email: 'a@b.co', contact_number: '+1234567' }).ok).toBe(false);
  });

  it('work hours: all days, ranges, 24:00:00 as the latest end, order and overlaps', () => {
    expect(parseWith(UserUpdateBody, { work_hours: week({ monday: [{ start: t(0), end: t(24) }] }) }).ok).toBe(true);
    const bad = parseWith(UserUpdateBody, {
      work_hours: week({ monday: [{ start: t(9), end: t(12) }, { start: t(11), end: t(13) }], tuesday: [{ start: t(10), end: t(10) }], friday: [{ start: t(9), end: t(60) }] }),
    });
    expect(!bad.ok && bad.errors).toEqual({
      'work_hours.monday.1': ['The work_hours.monday.1 field format is invalid.'],
      'work_hours.tuesday.0': ['The work_hours.tuesday.0 field format is invalid.'],
      'work_hours.friday.0.end.hour': ['The work_hours.friday.0.end.hour field must be between 0 and 24.'],
    });
    const { saturday: _s, ...six } = week() as Record<string, unknown>;
    const missing = parseWith(UserUpdateBody, { work_hours: six });
    expect(!missing.ok && missing.errors).toEqual({ 'work_hours.saturday': ['The work_hours.saturday field is required.'] });
  });

  it('timezones are IANA names', () => {
    expect(isTimezone('Europe/Paris')).toBe(true);
    expect(isTimezone('UTC')).toBe(true);
    expect(isTimezone('Mars/Olympus')).toBe(false);
    const r = parseWith(UserUpdateBody, { timezone: 'Mars/Olympus' });
    expect(!r.ok && r.errors).toEqual({ timezone: ['The timezone field must be a valid timezone.'] });
  });

  it('conference create: required fields, public_id pattern, at most 5 attendees', () => {
    const r = parseWith(ConferenceCreateBody, {
      online_conference_account_id: 1,
      public_id: 'has space',
      title: 'x'.repeat(256),
      is_public: 'no',
      online_conference_attendees: Array.from({ length: 6 }, (_, i) => ({ email: `a${i}@b.co`, name: 'A' })),
    });
    expect(!r.ok && r.errors).toEqual({
      public_id: ['The public_id field format is invalid.'],
      title: ['The title field must not be greater than 255 characters.'],
      is_public: ['The is_public field must be true or false.'],
      online_conference_attendees: ['The online_conference_attendees field must not have more than 5 items.'],
    });
  });

  it('recording URL expiry: empty means default, else 1 to 604800 whole seconds', () => {
    expect(parseWith(RecordingUrlQuery, {})).toEqual({ ok: true, value: {} });
    expect(parseWith(RecordingUrlQuery, { expiry: '' })).toEqual({ ok: true, value: {} });
    expect(parseWith(RecordingUrlQuery, { expiry: '3600' })).toEqual({ ok: true, value: { expiry: 3600 } });
    expect(parseWith(RecordingUrlQuery, { expiry: '604801' })).toEqual({ ok: false, errors: { expiry: ['The expiry field must be between 1 and 604800.'] } });
    expect(parseWith(RecordingUrlQuery, { expiry: '1.5' })).toEqual({ ok: false, errors: { expiry: ['The expiry field must be an integer.'] } });
  });
});
