import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/server/index.js';
import { ensureDefaultRoles } from '../../src/admin/seed/index.js';
import type { TenantRecord } from '../../src/store/types.js';
import { API, type KeyHeaders } from './fixtures.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite/index.js';
import { atOnce } from '../at-once.js';

/**
 * GET /online_conferences over a store in a temporary file: nothing in the API deletes a
 * conference or back-dates one, so a second connection sets `created_at` and `deleted_at`.
 * Conferences 1..4 of `localhost`: 1 ended (public, backed by an event), 2 running (private),
 * 3 not started (public), 4 not started and soft-deleted; `other.test` has one of its own.
 */
let dir: string;
let store: SqliteStore;
let tenant: TenantRecord;
let other: TenantRecord;
let app: ReturnType<typeof createServer>;
let c: number[];
let theirs: number;
let event: number;
let account: number;

function key(permissions: readonly string[], tenantId = tenant.id): KeyHeaders {
  const { record, secret } = store.keys.create({ tenant_id: tenantId, name: 'test', permissions });
  return { 'x-access-key-id': record.id, 'x-access-key-secret': secret };
}
let admin: KeyHeaders;
const call = (query: string, headers: Record<string, string> = admin) =>
  app.request({ method: 'GET', path: `${API}/online_conferences${query ? `?${query}` : ''}`, headers });

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'confctl-conf-list-'));
  const file = path.join(dir, 'data.db');
  store = openStore(file);
  tenant = store.tenants.create('localhost', ['127.0.0.1', '::1']);
  other = store.tenants.create('other.test');
  atOnce(ensureDefaultRoles(store, tenant.id));
  atOnce(ensureDefaultRoles(store, other.id));
  app = createServer({ store, signingSecret: 'test-secret', mediaDir: '/nonexistent', rateLimit: null });
  admin = key(['*']);
  const ada = store.users.insert(tenant.id, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test' });
  account = store.conferenceAccounts.insert(tenant.id, { owner_type: 'User', owner_id: ada.id, name: 'Ada room' }).id;
  const calendar = store.calendars.insert(tenant.id, { owner_type: 'User', owner_id: ada.id, name: 'Ada' });
  event = store.events.insert(tenant.id, { calendar_id: calendar.id, title: 'Review', start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' }).id;
  const base = { online_conference_account_id: account };
  c = [
    { ...base, public_id: 'alpha', title: 'Alpha review', is_public: true, backer_event_id: event, started_at: '2026-03-01T10:00:00Z', ended_at: '2026-03-01T10:45:00Z' },
    { ...base, public_id: 'beta', title: 'beta 100%', is_public: false, started_at: '2026-03-01T11:00:00Z' },
    { ...base, public_id: 'gamma', title: 'Gamma', is_public: true },
    { ...base, public_id: 'delta', title: 'Delta', is_public: false },
  ].map((row) => store.conferences.insert(tenant.id, row).id);
  const otto = store.users.insert(other.id, { first_name: 'Otto', last_name: 'Other', email: 'otto@other.test' });
  const otherAccount = store.conferenceAccounts.insert(other.id, { owner_type: 'User', owner_id: otto.id, name: 'Otto room' });
  theirs = store.conferences.insert(other.id, { online_conference_account_id: otherAccount.id, public_id: 'alpha', title: 'Alpha review', is_public: true }).id;
  const raw = new Database(file);
  const set = raw.prepare('UPDATE conferences SET created_at = ?, updated_at = ?, deleted_at = ? WHERE id = ?');
  set.run('2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', null, c[0]);
  set.run('2024-02-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z', null, c[1]);
  set.run('2024-02-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z', null, c[2]);
  set.run('2024-03-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z', c[3]);
  raw.close();
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function list(query: string) {
  const res = await call(query);
  expect(res.status, res.body).toBe(200);
  return res.json();
}
const ids = async (query: string) => (await list(query)).data.map((x: { id: number }) => x.id);
const filter = (attribute: string, operator: string, value?: string) =>
  `filter_attribute=${attribute}&filter_operator=${operator}${value === undefined ? '' : `&filter_value=${encodeURIComponent(value)}`}`;
const at = (...n: number[]) => n.map((i) => c[i - 1]);

describe('GET /online_conferences filters', () => {
  it('answers the live conferences in id order as the API renders them', async () => {
    const body = await list('');
    expect(body.data.map((x: { id: number }) => x.id)).toEqual(at(1, 2, 3));
    expect(body.data[0]).toEqual({
      id: c[0], online_conference_account_id: account, public_id: 'alpha', title: 'Alpha review', is_public: true, backer_event_id: event,
      is_occurred: true, started_at: '2026-03-01T10:00:00.000Z', ended_at: '2026-03-01T10:45:00.000Z',
      created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z', deleted_at: null,
    });
    expect(body.data[2]).toMatchObject({ is_public: true, is_occurred: false, started_at: null, backer_event_id: null });
  });

  it('filters booleans given as true/false/1/0, is_occurred derived from started_at', async () => {
    expect(await ids(filter('is_public', 'Equal', 'true'))).toEqual(at(1, 3));
    expect(await ids(filter('is_public', 'Equal', '0'))).toEqual(at(2));
    expect(await ids(filter('is_public', 'NotEqual', '1'))).toEqual(at(2));
    expect(await ids(filter('is_public', 'Contains', 'false'))).toEqual(at(2));
    expect(await ids(filter('is_occurred', 'Equal', '1'))).toEqual(at(1, 2));
    expect(await ids(filter('is_occurred', 'Equal', 'false'))).toEqual(at(3));
    expect(await ids(`${filter('is_occurred', 'Equal', 'false')}&with_trashed=true`)).toEqual(at(3, 4));
    expect(await ids(filter('is_occurred', 'GreaterThan', 'false'))).toEqual(at(1, 2));
    expect(await ids(filter('is_occurred', 'IsNull'))).toEqual([]);
    expect(await ids(filter('is_public', 'NotNull'))).toEqual(at(1, 2, 3));
  });

  it('filters integer attributes', async () => {
    expect(await ids(filter('id', 'GreaterThan', String(c[0])))).toEqual(at(2, 3));
    expect(await ids(filter('id', 'LessThanOrEqual', String(c[1])))).toEqual(at(1, 2));
    expect(await ids(filter('backer_event_id', 'Equal', String(event)))).toEqual(at(1));
    expect(await ids(filter('backer_event_id', 'IsNull'))).toEqual(at(2, 3));
    expect(await ids(filter('backer_event_id', 'NotEqual', String(event)))).toEqual([]);
    expect(await ids(filter('online_conference_account_id', 'Equal', String(account)))).toEqual(at(1, 2, 3));
    expect(await ids(filter('online_conference_account_id', 'Equal', String(account + 1)))).toEqual([]);
  });

  it('filters text attributes with ASCII case folding and a literal %', async () => {
    expect(await ids(filter('public_id', 'Equal', 'ALPHA'))).toEqual(at(1));
    expect(await ids(filter('public_id', 'GreaterThan', 'Beta'))).toEqual(at(3));
    expect(await ids(filter('title', 'Contains', 'REVIEW'))).toEqual(at(1));
    expect(await ids(filter('title', 'Contains', '0%'))).toEqual(at(2));
    expect(await ids(filter('title', 'LessThan', 'b'))).toEqual(at(1));
  });

  it('filters dates as instants', async () => {
    expect(await ids(filter('started_at', 'LessThan', '2026-03-01T11:30:00+01:00'))).toEqual(at(1));
    expect(await ids(filter('started_at', 'GreaterThanOrEqual', '2026-03-01T10:00:00Z'))).toEqual(at(1, 2));
    expect(await ids(filter('started_at', 'IsNull'))).toEqual(at(3));
    expect(await ids(filter('ended_at', 'NotNull'))).toEqual(at(1));
    expect(await ids(filter('created_at', 'Equal', '2024-02-01'))).toEqual(at(2, 3));
    expect(await ids(filter('updated_at', 'GreaterThan', '2024-01-15'))).toEqual(at(2, 3));
  });

  it('includes soft-deleted conferences only with with_trashed', async () => {
    expect(await ids(filter('deleted_at', 'NotNull'))).toEqual([]);
    expect(await ids(`${filter('deleted_at', 'NotNull')}&with_trashed=1`)).toEqual(at(4));
    expect(await ids('with_trashed=true')).toEqual(at(1, 2, 3, 4));
    expect(await ids('with_trashed=false')).toEqual(at(1, 2, 3));
  });
});

describe('GET /online_conferences ordering', () => {
  it('orders both ways, ties broken by id in the same direction', async () => {
    expect(await ids('order_by=created_at')).toEqual(at(1, 2, 3));
    expect(await ids('order_by=created_at&order_direction=desc')).toEqual(at(3, 2, 1));
    expect(await ids('order_by=is_public')).toEqual(at(2, 1, 3));
    expect(await ids('order_by=is_occurred&order_direction=desc')).toEqual(at(2, 1, 3));
  });

  it('folds ASCII case in text order and sorts nulls first ascending, last descending', async () => {
    expect(await ids('order_by=title&order_direction=desc')).toEqual(at(3, 2, 1));
    expect(await ids('order_by=started_at')).toEqual(at(3, 1, 2));
    expect(await ids('order_by=started_at&order_direction=desc')).toEqual(at(2, 1, 3));
  });
});

describe('GET /online_conferences pages, access and tenancy', () => {
  const url = (query: string) => `http://localhost${API}/online_conferences?${query}`;

  it('answers the paginated envelope with canonical page URLs', async () => {
    const first = await list('page_size=2&order_by=title');
    expect({ ...first, data: first.data.map((x: { id: number }) => x.id) }).toEqual({
      message: 'Success.',
      data: at(1, 2),
      current_page: 1,
      first_page_url: url('order_by=title&page_number=1&page_size=2'),
      from: 1,
      last_page: 2,
      last_page_url: url('order_by=title&page_number=2&page_size=2'),
      next_page_url: url('order_by=title&page_number=2&page_size=2'),
      path: `http://localhost${API}/online_conferences`,
      per_page: 2,
      prev_page_url: null,
      to: 2,
      total: 3,
    });
    expect(await list('per_page=2&page=2&order_by=title')).toMatchObject({ data: [{ id: c[2] }], current_page: 2, from: 3, to: 3, next_page_url: null });
  });

  const invalid: [string, Record<string, string[]>][] = [
    ['filter_attribute=name&filter_value=x', { filter_attribute: ['The selected filter_attribute is invalid.'] }],
    [filter('title', 'Like', 'x'), { filter_operator: ['The selected filter_operator is invalid.'] }],
    [filter('is_public', 'Equal', 'yes'), { filter_value: ['The filter_value field must be true or false.'] }],
    [filter('is_occurred', 'Contains', 'tru'), { filter_value: ['The filter_value field must be true or false.'] }],
    [filter('backer_event_id', 'Equal', 'one'), { filter_value: ['The filter_value field must be an integer.'] }],
    [filter('started_at', 'LessThan', 'soon'), { filter_value: ['The filter_value field must be a valid date.'] }],
    [filter('title', 'Equal'), { filter_value: ['The filter_value field is required.'] }],
    ['order_by=online_conference_attendees', { order_by: ['The selected order_by is invalid.'] }],
    ['with_trashed=maybe', { with_trashed: ['The with_trashed field must be true or false.'] }],
  ];
  it.each(invalid)('refuses %s with 400', async (query, errors) => {
    const res = await call(query);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ message: Object.values(errors)[0][0], errors });
  });

  it('needs online_conferences.read.*', async () => {
    const denied = await call('', key(['users.read.*', 'online_conferences.create.*']));
    expect([denied.status, denied.body]).toEqual([401, 'Access denied.']);
    const allowed = await call('', key(['online_conferences.read.*']));
    expect(allowed.status).toBe(200);
    expect(allowed.json().data.map((x: { id: number }) => x.id)).toEqual(at(1, 2, 3));
  });

  it('never lists another tenant’s conferences', async () => {
    expect(await ids(`${filter('public_id', 'Equal', 'alpha')}&with_trashed=1`)).toEqual(at(1));
    const res = await call('with_trashed=1', { ...key(['*'], other.id), host: 'other.test' });
    expect(res.json()).toMatchObject({ total: 1, data: [{ id: theirs, public_id: 'alpha' }] });
  });
});
