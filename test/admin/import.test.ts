import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importRecords, ImportError, isImportKind, type ImportKind } from '../../src/admin/import.js';
import { setup } from './fixture.js';
import { atOnce } from '../at-once.js';

let f: ReturnType<typeof setup>;
beforeEach(() => {
  f = setup();
});
afterEach(() => f.store.close());

const page = { page_size: 100, page_number: 1 };
const json = (rows: unknown[]) => JSON.stringify(rows, null, 2);
const ndjson = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const run = (kind: ImportKind, text: string, fileName = `${kind}.json`) => atOnce(importRecords(f.store, f.tenantId, kind, text, { fileName }));

/** Every row count an import may touch, to prove a failed import wrote nothing. */
function counts() {
  const q = { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc' as const, filter: null };
  const { store, tenantId, owner } = f;
  return {
    users: store.users.list(tenantId, q).total,
    customers: store.customers.list(tenantId, q).total,
    departments: store.departments.list(tenantId).length,
    providers: store.providers.list().length,
    conferenceAccounts: store.conferenceAccounts.listByOwner(tenantId, 'User', owner.id, page).total,
    connectedAccounts: store.connectedAccounts.listByOwner(tenantId, 'User', owner.id, page).total,
  };
}

function importError(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ImportError) return e;
    throw e;
  }
  throw new Error('expected an ImportError');
}

const workHours = {
  sunday: [], monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 0, second: 0 } }],
  tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [],
};

describe('kinds', () => {
  it('knows its kinds', () => {
    expect(isImportKind('users')).toBe(true);
    expect(isImportKind('toString')).toBe(false);
  });

  it('departments and users (JSON and NDJSON), department by id or by name', () => {
    expect(run('departments', json([{ name: 'Sales' }, { name: 'Support' }]))).toEqual({ kind: 'departments', created: 2 });
    const sales = f.store.departments.list(f.tenantId).find((d) => d.name === 'Sales')!;
    const users = [
      { first_name: 'Bo', last_name: 'B', email: 'bo@example.com', department_id: sales.id, role: 'Member', timezone: 'Europe/Paris', work_hours: workHours },
      { first_name: 'Cy', last_name: 'C', email: 'cy@example.com', department: 'support', status: 0 },
      { first_name: 'Di', last_name: 'D', email: 'di@example.com', department: 'Research' },
    ];
    expect(run('users', ndjson(users), 'users.ndjson')).toEqual({ kind: 'users', created: 3 });
    expect(run('users', json([{ first_name: 'Ed', last_name: 'E', email: 'ed@example.com', department: 'research' }]))).toEqual({ kind: 'users', created: 1 });
    const byEmail = (email: string) => f.store.users.findByEmail(f.tenantId, email)!;
    expect(byEmail('bo@example.com')).toMatchObject({ department_id: sales.id, role: 'Member', timezone: 'Europe/Paris', work_hours: workHours, status: 1 });
    expect(byEmail('cy@example.com')).toMatchObject({ department_name: 'Support', status: 0 });
    expect(byEmail('di@example.com').department_name).toBe('Research');
    expect(byEmail('ed@example.com').department_id).toBe(byEmail('di@example.com').department_id); // created once
    expect(f.store.departments.list(f.tenantId).map((d) => d.name)).toEqual(['Sales', 'Support', 'Research']);
  });

  it('customers', () => {
    const rows = [
      { first_name: 'Cat', last_name: 'One', email: 'cat@example.com', contact_number: '+4915112345678', address: { city: 'Berlin', country: 'Germany' } },
      { first_name: 'Dan', last_name: 'Two', email: 'dan@example.com' },
    ];
    expect(run('customers', json(rows))).toEqual({ kind: 'customers', created: 2 });
    expect(run('customers', ndjson([{ first_name: 'Eve', last_name: 'Three', email: 'eve@example.com' }]))).toEqual({ kind: 'customers', created: 1 });
    expect(f.store.customers.findByEmail(f.tenantId, 'cat@example.com')).toMatchObject({ name: 'Cat One', address: expect.objectContaining({ city: 'Berlin', line_1: null }) });
    expect(f.store.customers.findByEmail(f.tenantId, 'eve@example.com')).toBeTruthy();
  });

  it('connected accounts (provider by name) and conference accounts', () => {
    const customer = f.store.customers.insert(f.tenantId, { first_name: 'Cu', last_name: 'St', email: 'cu@example.com' });
    const connected = [
      { owner_type: 'User', owner_id: f.owner.id, provider: 'zoom', provider_uid: 'z-1', provider_email: 'ada@zoom.example' },
      { owner_type: 'Customer', owner_id: customer.id, provider: 'zoom', provider_uid: 'z-2' },
    ];
    expect(run('connected-accounts', ndjson(connected))).toEqual({ kind: 'connected-accounts', created: 2 });
    expect(f.store.providers.list().map((p) => p.name)).toEqual(['zoom']);
    const [ca] = f.store.connectedAccounts.listByOwner(f.tenantId, 'User', f.owner.id, page).rows;
    expect(ca).toMatchObject({ provider_uid: 'z-1', provider_email: 'ada@zoom.example', provider_id: f.store.providers.list()[0].id });
    expect(run('connected-accounts', json([{ owner_type: 'User', owner_id: f.owner.id, provider: 'google', provider_uid: 'g-1' }])).created).toBe(1);

    expect(run('conference-accounts', json([{ owner_type: 'User', owner_id: f.owner.id, name: 'Zoom room', connected_account_id: ca.id }])).created).toBe(1);
    expect(run('conference-accounts', ndjson([{ owner_type: 'Customer', owner_id: customer.id, name: 'Guest room' }])).created).toBe(1);
    const rooms = f.store.conferenceAccounts.listByOwner(f.tenantId, 'User', f.owner.id, page).rows;
    expect(rooms.map((r) => [r.name, r.connected_account_id])).toEqual([['Ada room', null], ['Zoom room', ca.id]]);
    expect(f.store.conferenceAccounts.listByOwner(f.tenantId, 'Customer', customer.id, page).total).toBe(1);
  });

  it('calendars and events', () => {
    expect(run('calendars', ndjson([{ owner_type: 'User', owner_id: f.owner.id, name: 'Work' }]))).toEqual({ kind: 'calendars', created: 1 });
    expect(run('calendars', json([{ owner_type: 'User', owner_id: f.owner.id, name: 'Home' }])).created).toBe(1);
    const customer = f.store.customers.insert(f.tenantId, { first_name: 'Cu', last_name: 'St', email: 'cu@example.com' });
    const calendarId = f.store.calendars.insert(f.tenantId, { owner_type: 'User', owner_id: f.owner.id, name: 'Probe' }).id - 2; // "Work"
    expect(f.store.calendars.get(f.tenantId, calendarId)!.name).toBe('Work');
    const event = {
      calendar_id: calendarId, title: 'Kick-off', start: '2026-04-01T09:00:00+02:00', end: '2026-04-01T10:00:00+02:00',
      attendees: [{ email: 'cu@example.com', name: 'Cu St', status: 1, customer_id: customer.id }, { email: 'ada@example.com', is_organizer: true }],
      location: 'Room 1', customer_id: customer.id,
    };
    expect(run('events', json([event]))).toEqual({ kind: 'events', created: 1 });
    expect(run('events', ndjson([{ calendar_id: calendarId, title: 'Retro', start: '2026-04-02', end: '2026-04-03', canceled_by_type: 'User', canceled_by_id: f.owner.id }])).created).toBe(1);
    // Event ids: the store hands them out in order; find them through the calendar.
    const first = f.store.events.get(f.tenantId, calendarId, 1)!;
    expect(first).toMatchObject({ title: 'Kick-off', start: '2026-04-01T07:00:00.000Z', end: '2026-04-01T08:00:00.000Z', location: 'Room 1', customer_id: customer.id });
    expect(first.attendees).toEqual([
      { email: 'cu@example.com', name: 'Cu St', status: 1, is_organizer: false, customer_id: customer.id, calendar_id: null },
      { email: 'ada@example.com', name: null, status: 0, is_organizer: true, customer_id: null, calendar_id: null },
    ]);
    expect(f.store.events.get(f.tenantId, calendarId, 2)).toMatchObject({ title: 'Retro', canceled_by_type: 'User', canceled_by_id: f.owner.id });
  });

  it('an empty file imports nothing', () => {
    expect(run('users', '')).toEqual({ kind: 'users', created: 0 });
    expect(run('users', '[]')).toEqual({ kind: 'users', created: 0 });
  });
});

describe('bad files write nothing and report every bad record', () => {
  it('NDJSON: line numbers in the file, blank lines counted', () => {
    f.store.customers.insert(f.tenantId, { first_name: 'Old', last_name: 'Timer', email: 'taken@example.com' });
    const text = [
      JSON.stringify({ first_name: 'Ok', last_name: 'One', email: 'ok1@example.com' }),
      '',
      JSON.stringify({ first_name: 'Dup', last_name: 'Db', email: 'TAKEN@example.com' }),
      JSON.stringify({ last_name: 'NoFirst', email: 'not-an-email', contact_number: '12' }),
      '   ',
      '{not json',
      JSON.stringify({ first_name: 'Ok', last_name: 'Two', email: 'ok1@EXAMPLE.com' }),
      '[1]',
    ].join('\n');
    const before = counts();
    const err = importError(() => run('customers', text, 'customers.ndjson'));
    expect(counts()).toEqual(before);
    expect(err.unit).toBe('line');
    expect(err.format).toBe('ndjson');
    expect(err.rows).toEqual([
      { line: 3, errors: { email: ['The email has already been taken.'] } },
      {
        line: 4,
        errors: {
          first_name: ['The first_name field is required.'],
          email: ['The email field must be a valid email address.'],
          contact_number: ['The contact_number field format is invalid.'],
        },
      },
      { line: 6, errors: { record: ['The record must be valid JSON.'] } },
      { line: 7, errors: { email: ['The email has already been taken.'] } },
      { line: 8, errors: { record: ['The record must be a JSON object.'] } },
    ]);
    expect(err.message).toBe('customers.ndjson: 5 invalid lines (line 3, 4, 6, 7, 8); nothing was imported.');
    expect(err.details()).toContain('customers.ndjson:3: email: The email has already been taken.');
  });

  it('text with a NUL or a lone surrogate is refused in every text field, as the API refuses it', () => {
    const user = { first_name: 'Ok', last_name: 'One', email: 'n1@example.com', timezone: 'UTC' };
    const users = ndjson([{ ...user, first_name: 'Nul\u0000' }, { ...user, email: 'n2@example.com', avatar_url: 'https://a.example/\ud800' }]);
    const events = ndjson([{ calendar_id: 1, title: 'T', start: '2026-04-01', end: '2026-04-02', location: 'a\u0000b', body: 'x\udc00' }]);
    const before = counts();
    const userRows = importError(() => run('users', users, 'users.ndjson')).rows;
    expect(userRows[0].errors.first_name).toEqual(['The first_name field format is invalid.']);
    expect(userRows[1].errors.avatar_url).toEqual(['The avatar_url field format is invalid.']);
    const eventRows = importError(() => run('events', events, 'events.ndjson')).rows;
    expect(eventRows[0].errors).toMatchObject({ body: ['The body field format is invalid.'], location: ['The location field format is invalid.'] });
    expect(counts()).toEqual(before);
  });

  it('JSON array: record numbers; references, roles, timezones and duplicates are checked', () => {
    const rows = [
      { first_name: 'Ok', last_name: 'A', email: 'ok@example.com', department: 'New dept' },
      { first_name: 'Bad', last_name: 'B', email: 'ada@example.com', role: 'Overlord', department_id: 999 },
      { first_name: 'Bad', last_name: 'C', email: 'c@example.com', timezone: 'Mars/Base', status: 2, work_hours: { ...workHours, sunday: undefined } },
      { first_name: 'Dup', last_name: 'D', email: 'OK@example.com' },
    ];
    const before = counts();
    const err = importError(() => run('users', json(rows)));
    expect(counts()).toEqual(before);
    expect(f.store.departments.list(f.tenantId)).toEqual([]); // "New dept" was not created
    expect(err.unit).toBe('record');
    expect(err.rows).toEqual([
      { line: 2, errors: { email: ['The email has already been taken.'], department_id: ['The selected department_id is invalid.'], role: ['The selected role is invalid.'] } },
      {
        line: 3,
        errors: {
          timezone: ['The timezone field must be a valid timezone.'],
          'work_hours.sunday': ['The work_hours.sunday field is required.'],
          status: ['The selected status is invalid.'],
        },
      },
      { line: 4, errors: { email: ['The email has already been taken.'] } },
    ]);
    expect(err.message).toMatch(/3 invalid records \(record 2, 3, 4\)/);
  });

  it('accounts, calendars and events check owners and references', () => {
    const before = counts();
    const ca = importError(() => run('conference-accounts', ndjson([
      { owner_type: 'User', owner_id: f.owner.id, name: 'fine' },
      { owner_type: 'Customer', owner_id: f.owner.id, name: 'wrong owner' },
      { owner_type: 'Robot', owner_id: 1, name: 'x', connected_account_id: 5 },
      { owner_type: 'User', owner_id: f.owner.id, name: 'x', connected_account_id: 5 },
    ])));
    expect(ca.rows).toEqual([
      { line: 2, errors: { owner_id: ['The selected owner_id is invalid.'] } },
      { line: 3, errors: { owner_type: ['The selected owner_type is invalid.'] } },
      { line: 4, errors: { connected_account_id: ['The selected connected_account_id is invalid.'] } },
    ]);
    const cx = importError(() => run('connected-accounts', json([{ owner_type: 'User', owner_id: 12345, provider: 'zoom', provider_uid: 'u' }, { owner_type: 'User', owner_id: f.owner.id, provider_uid: 'u' }])));
    expect(cx.rows).toEqual([
      { line: 1, errors: { owner_id: ['The selected owner_id is invalid.'] } },
      { line: 2, errors: { provider: ['The provider field is required.'] } },
    ]);
    expect(f.store.providers.list()).toEqual([]); // no provider created by a failed import
    const other = f.store.calendars.insert(f.otherTenantId, { owner_type: 'User', owner_id: f.owner.id, name: 'Other tenant' });
    const mine = f.store.calendars.insert(f.tenantId, { owner_type: 'User', owner_id: f.owner.id, name: 'Mine' });
    const ev = importError(() => run('events', ndjson([
      { calendar_id: other.id, title: 'T', start: '2026-01-01T10:00:00Z', end: '2026-01-01T11:00:00Z' },
      { calendar_id: mine.id, title: 'T', start: '2026-01-01T10:00:00Z', end: '2026-01-01T09:00:00Z', customer_id: 77, attendees: [{ email: 'a@example.com', customer_id: 77 }] },
      { calendar_id: mine.id, title: '', start: 'yesterday-ish', end: '2026-01-01T09:00:00Z', attendees: [{ email: 'nope' }] },
      { calendar_id: mine.id, title: 'T', start: '2026-01-01', end: '2026-01-02', canceled_by_id: f.owner.id },
      { calendar_id: mine.id, title: 'T', start: '2026-01-01', end: '2026-01-02' },
    ])));
    expect(ev.rows).toEqual([
      { line: 1, errors: { calendar_id: ['The selected calendar_id is invalid.'] } },
      { line: 2, errors: { end: ['The end field must be a date after start.'], 'attendees.0.customer_id': ['The selected attendees.0.customer_id is invalid.'], customer_id: ['The selected customer_id is invalid.'] } },
      { line: 3, errors: { title: ['The title field is required.'], start: ['The start field must be a valid date.'], 'attendees.0.email': ['The attendees.0.email field must be a valid email address.'] } },
      { line: 4, errors: { canceled_by_type: ['The canceled_by_type field is required when canceled_by_id is present.'] } },
    ]);
    expect(f.store.events.get(f.tenantId, mine.id, 1)).toBeUndefined();
    expect(counts()).toEqual(before);
    expect(importError(() => run('departments', json([{ name: 'A' }, { name: 'a' }]))).rows).toEqual([{ line: 2, errors: { name: ['The name has already been taken.'] } }]);
    expect(f.store.departments.list(f.tenantId)).toEqual([]);
  });

  it('a JSON syntax error names its line', () => {
    const err = importError(() => run('users', '[\n  {"first_name": "a"},\n  {oops}\n]'));
    expect(err.unit).toBe('line');
    expect(err.rows).toEqual([{ line: 3, errors: { file: ['The file must be valid JSON.'] } }]);
  });
});
