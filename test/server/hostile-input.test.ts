import { afterAll, beforeAll, expect, it } from 'vitest';
import { MESSAGES } from '../../src/contract/messages.js';
import { fillPath, OPERATION_META, type OperationId, pathParams } from '../../src/contract/operations-meta.js';
import type { InjectedResponse } from '../../src/server/index.js';
import { conferenceSetup, type ConferenceFixture } from './conferences-fixture.js';

/**
 * Hostile input generated over every operation of the contract: bad path ids, bad and odd query
 * parameters, malformed JSON, wrong types, huge numbers, NUL and lone surrogates, deep nesting and
 * long text in every body field. Whatever the status, it is never a 5xx, and every error body is
 * either the JSON validation shape or one of the documented plain messages. (Whether NUL or a lone
 * surrogate is a 400 is asserted where that rule lives; here only "no 5xx, documented body".)
 */
let f: ConferenceFixture;
let params: Record<string, number>;
/** The deletes get a conference (and attendee) of their own, so the other operations keep theirs. */
let doomed: Record<string, number>;
beforeAll(() => {
  f = conferenceSetup();
  const conf = f.conference('hostile');
  const victim = f.conference('hostile-doomed');
  const guest = f.store.attendees.insert(victim.id, { email: 'guest@x.test', name: 'Guest', attendee_type: null, attendee_id: null });
  params = {
    user_id: f.ada.id,
    customer_id: f.cleo.id,
    online_conference_id: conf.id,
    online_conference_attendee_id: f.store.attendees.findByEmail(conf.id, f.ada.email)!.id,
    online_conference_recording_id: 1,
    calendar_id: f.calendar.id,
    event_id: f.event.id,
  };
  doomed = { ...params, online_conference_id: victim.id, online_conference_attendee_id: guest.id };
});
afterAll(() => f.cleanup());

/** A valid body per writing operation, whose fields the generator then spoils one by one. */
const BODIES: Partial<Record<OperationId, Record<string, unknown> | unknown[]>> = {
  createUser: {
    department_id: null, first_name: 'Hal', last_name: 'H', email: 'hal@acme.test', timezone: 'UTC', role: 'Member', activate: true, is_silent: true,
    work_hours: { sunday: [], monday: [{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 0, second: 0 } }], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] },
  },
  updateUser: { first_name: 'Ada', last_name: 'L', email: 'ada@acme.test', timezone: 'Europe/London', status: 1, role: 'Admin', department_id: null },
  createCustomer: { first_name: 'Eve', last_name: 'E', email: 'eve@acme.test', middle_name: null, contact_number: '1', address: { line_1: 'x', city: 'y', country: 'GB' } },
  updateCustomer: { first_name: 'Cleo', contact_number: '2' },
  createConference: { online_conference_account_id: 1, public_id: 'h-1', title: 'T', is_public: true, backer_event_id: null },
  updateConference: { title: 'T', is_public: false },
  addConferenceAttendees: [{ email: 'a@x.test', name: 'A' }],
  createAttendeeJoinToken: { expiry: 600 },
};

const NASTY_VALUES: unknown[] = [
  null, true, 0, -1, 1.5, 1e308, -1e308, 2 ** 64, Number.MAX_SAFE_INTEGER + 2, '', ' ', '1', 'x'.repeat(70_000),
  '\u0000', 'a\u0000b', '\ud800', 'a\udfffb', '\u202e\u0000', '%00', "'; DROP TABLE users; --", {}, [], [[[]]], { $gt: '' }, { __proto__: { admin: true } },
];

const RAW_BODIES = ['', '{', '[', 'nul', '{"a":', '"str"', '123', 'null', 'true', '[]', '{}', '\u0000', '{"a":"\\ud800"}', '{"a":1e99999}',
  '['.repeat(5000) + ']'.repeat(5000), `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`, '\xff\xfe{}', '{"__proto__":{"polluted":1}}'];

const BAD_IDS = ['0', '-1', 'abc', '1.5', '1e3', '99999999999999999999999', '%00', '%F0%9F%98%80', '%ED%A0%80', ' 1', '0x10', '..%2F..%2Fetc', '1;2'];

const QUERIES = [
  'page_size=0', 'page_size=-1', 'page_size=101', 'page_size=abc', 'page_size=1e999', `page_size=${'9'.repeat(400)}`, 'page_number=0',
  `page_number=${'9'.repeat(30)}`, 'page_size=1&page_size=2', 'per_page=%00', 'with_trashed=maybe', 'order_by=password', 'order_direction=sideways',
  'filter_attribute=email%3BDROP', 'filter_operator=Like', 'filter_attribute=email&filter_value=%00', 'filter_attribute=email&filter_value=%ED%A0%80',
  'filter_attribute=id&filter_operator=GreaterThan&filter_value=1e999', 'filter_attribute=created_at&filter_operator=LessThan&filter_value=not-a-date',
  'filter_attribute=email&filter_operator=IsNull&filter_value=x', 'expiry=-1', 'expiry=abc', `expiry=${'9'.repeat(40)}`, '%ZZ=1', 'a=%E0%A4%A',
];

const PLAIN = new Set<string>(Object.values(MESSAGES));

function check(label: string, res: InjectedResponse): void {
  expect(res.status, `${label}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (res.status < 400) return;
  const type = String(res.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) {
    const body = res.json();
    expect(typeof body.message, label).toBe('string');
    expect(body.errors, label).toBeTypeOf('object');
  } else {
    expect(PLAIN.has(res.body), `${label}: ${res.status} ${JSON.stringify(res.body.slice(0, 200))}`).toBe(true);
  }
}

/** The body variants of an operation: raw strings, wrong top-level types, and each field spoiled. */
function bodies(id: OperationId): { label: string; body: unknown }[] {
  const valid = BODIES[id];
  const out: { label: string; body: unknown }[] = RAW_BODIES.map((raw, i) => ({ label: `raw#${i}`, body: raw }));
  for (const [i, v] of NASTY_VALUES.entries()) out.push({ label: `whole#${i}`, body: JSON.stringify(v) });
  if (Array.isArray(valid)) {
    for (const [i, v] of NASTY_VALUES.entries()) {
      out.push({ label: `item#${i}`, body: [v] });
      for (const field of Object.keys(valid[0] as object)) out.push({ label: `items.${field}#${i}`, body: [{ ...(valid[0] as object), [field]: v }] });
    }
  } else if (valid) {
    for (const field of Object.keys(valid)) {
      for (const [i, v] of NASTY_VALUES.entries()) out.push({ label: `${field}#${i}`, body: { ...valid, [field]: v } });
    }
    out.push({ label: 'unknown field', body: { ...valid, is_admin: true, tenant_id: f.other.id, id: 1 } });
  }
  return out;
}

it('every operation: no 5xx and a documented error body, whatever the input', async () => {
  let sent = 0;
  for (const op of OPERATION_META) {
    const ids = op.method === 'DELETE' ? doomed : params;
    const send = async (label: string, path: string, body?: unknown) => {
      sent++;
      check(`${op.id} ${label}`, await f.call(op.method, path, { body }));
    };
    const good = fillPath(op.path, ids);
    for (const name of pathParams(op.path)) {
      for (const bad of BAD_IDS) {
        // fillPath would encode the id; bad ids go in as a client could send them.
        const path = op.path.replace(/\{(\w+)\}/g, (_, p: string) => (p === name ? bad : String(ids[p])));
        await send(`${name}=${bad}`, path, op.method === 'GET' ? undefined : '{}');
      }
    }
    for (const q of QUERIES) await send(`?${q}`, `${good}?${q}`, op.method === 'GET' ? undefined : '{}');
    // A DELETE gets the hostile bodies too: it must ignore them.
    if (op.method !== 'GET') for (const { label, body } of bodies(op.id)) await send(label, good, body);
  }
  expect(sent).toBeGreaterThanOrEqual(1500);
  // Nothing got through to another tenant on the way.
  expect(f.store.users.findByEmail(f.other.id, 'ada@acme.test')).toBeUndefined();
}, 60_000);

it('a body the pipeline refuses before reading it: over 1 MiB is 413, never a 5xx', async () => {
  const res = await f.call('POST', '/customers', { body: `{"first_name":"${'a'.repeat(1024 * 1024)}"}` });
  expect([res.status, res.body]).toEqual([413, MESSAGES.payloadTooLarge]);
});

it('a header the pipeline checks (request id, host) holding hostile text: no 5xx', async () => {
  for (const value of ['\u0000', 'x'.repeat(10_000), '\ud800', '../../', ' ']) {
    const safe = Buffer.from(value, 'utf8').toString('latin1');
    check(`x-request-id ${JSON.stringify(value.slice(0, 10))}`, await f.call('GET', '/users', { headers: { 'x-request-id': safe } }));
    check(`host ${JSON.stringify(value.slice(0, 10))}`, await f.call('GET', '/users', { headers: { host: safe } }));
    check(`key ${JSON.stringify(value.slice(0, 10))}`, await f.call('GET', '/users', { key: { 'x-access-key-id': safe, 'x-access-key-secret': safe } }));
  }
});
