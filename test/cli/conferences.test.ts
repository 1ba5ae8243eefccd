import { afterEach, describe, expect, it } from 'vitest';
import { parseAttendee, slug } from '../../src/cli/commands/conferences/body.js';
import * as conferences from '../../src/cli/commands/conferences/index.js';
import { createProgram } from '../../src/cli/main.js';
import { BASE, type Fake, fake, JSON_HEADERS, ORIGIN, page, TEXT_HEADERS, withProfile } from './helpers.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const api = () => f.agent.get(ORIGIN);
const P = '/api/public/v2.0';
const CONF = { id: 3, online_conference_account_id: 1, public_id: 'weekly-sync', title: 'Weekly sync', is_public: false, backer_event_id: null, is_occurred: false };
const ATTENDEE = { id: 9, online_conference_id: 3, email: 'grace@example.com', name: 'Grace', attendee_type: 'User', attendee_id: 2, joined_at: null };

/** Flags → options with the runners replaced (no I/O). */
async function parse(args: string[]): Promise<Record<string, any>> {
  const { ctx } = fake();
  const program = createProgram(ctx);
  const seen: unknown[] = [];
  const capture = async (o: unknown) => void seen.push(o);
  conferences.register(program, ctx, { list: capture, create: capture, get: capture, update: capture, attendeesList: capture, attendeesAdd: capture });
  await program.parseAsync(args, { from: 'user' });
  return seen[0] as Record<string, any>;
}

describe('parsing', () => {
  it('create: every flag, repeatable --attendee, --data', async () => {
    const o = await parse(['conferences', 'create', '--account', '1', '--public-id', 'p', '--title', 'T', '--private', '--backer-event', '11', '--attendee', 'Ada Lovelace <ada@example.com>', '--attendee', 'Grace<grace@example.com>', '--data', '@c.json']);
    expect(o).toMatchObject({
      params: {},
      data: '@c.json',
      body: {
        online_conference_account_id: 1,
        public_id: 'p',
        title: 'T',
        is_public: false,
        backer_event_id: 11,
        online_conference_attendees: [{ name: 'Ada Lovelace', email: 'ada@example.com' }, { name: 'Grace', email: 'grace@example.com' }],
      },
    });
  });

  it('update: the given fields (the runner completes them); attendees list: paging; attendees add', async () => {
    expect(await parse(['conferences', 'update', '3', '--public'])).toMatchObject({ params: { online_conference_id: '3' }, body: { is_public: true } });
    expect((await parse(['conferences', 'update', '3', '--title', 'X'])).body).toEqual({ title: 'X' });
    expect(await parse(['conferences', 'attendees', 'list', '3', '--page', '2', '--page-size', '5'])).toMatchObject({ params: { online_conference_id: '3' }, query: { page_number: 2, page_size: 5 } });
    expect(await parse(['conferences', 'update', '3', '--edit'])).toMatchObject({ edit: true, body: {} });
    expect(await parse(['conferences', 'attendees', 'add', '3', '--attendee', 'Grace <grace@example.com>'])).toMatchObject({ attendees: [{ name: 'Grace', email: 'grace@example.com' }] });
  });

  it('a bare e-mail is an attendee named by the address (create and attendees add)', async () => {
    expect(parseAttendee(' grace@example.com ')).toEqual({ name: 'grace@example.com', email: 'grace@example.com' });
    expect((await parse(['conferences', 'create', '--attendee', 'grace@example.com'])).body).toEqual({
      online_conference_attendees: [{ name: 'grace@example.com', email: 'grace@example.com' }],
    });
    expect(await parse(['conferences', 'attendees', 'add', '3', '--attendee', 'grace@example.com'])).toMatchObject({ attendees: [{ name: 'grace@example.com', email: 'grace@example.com' }] });
  });

  it.each([
    ['grace@example'],
    ['<ada@example.com>'],
    ['Ada <ada@example>'],
    ['Ada <ada example.com>'],
    ['Ada <ada@example.com> x'],
    ['Ada <a@b.com> <c@d.com>'],
  ])('--attendee %j is rejected', (value) => expect(() => parseAttendee(value)).toThrow(/--attendee must look like "Name <email@example.com>" or "email@example.com"/));

  it.each([
    [['conferences', 'create', '--attendee', 'nope'], /--attendee must look like/],
    [['conferences', 'create', '--account', 'x'], /--account must be a positive integer/],
    [['conferences', 'update', '3', '--public', '--private'], /--public and --private do not go together/],
    [['conferences', 'get', 'abc'], /conference_id must be a positive integer/],
  ])('%j is a usage error', async (args, message) => {
    await expect(parse(args)).rejects.toThrow(message);
  });

  it('slugs a title into a valid public id', () => {
    expect(slug('Weekly Sync (moved)!')).toBe('weekly-sync-moved');
    expect(slug('  Q3_review - Berlin ')).toBe('q3_review-berlin');
    expect(slug('x'.repeat(300))).toHaveLength(255);
    expect(slug('日本')).toBe('');
  });
});

describe('conferences create', () => {
  it('sends exactly the body from flags over --data and prints the conference', async () => {
    f = await withProfile();
    const body = { online_conference_account_id: 1, public_id: 'weekly-sync', title: 'Weekly sync', is_public: false, backer_event_id: 11, online_conference_attendees: [{ name: 'Ada', email: 'ada@example.com' }] };
    let sent: unknown;
    api()
      .intercept({ path: `${P}/online_conferences`, method: 'POST' })
      .reply((o) => ((sent = JSON.parse(String(o.body))), { statusCode: 200, data: { message: 'Created', data: CONF }, responseOptions: JSON_HEADERS }));
    const data = JSON.stringify({ title: 'old', backer_event_id: 11 });
    expect(await f.run(['conferences', 'create', '--data', data, '--account', '1', '--public-id', 'weekly-sync', '--title', 'Weekly sync', '--private', '--attendee', 'Ada <ada@example.com>'])).toBe(0);
    expect(sent).toEqual(body);
    expect(JSON.parse(f.stdout())).toEqual(CONF);
  });

  it('in a pipe, names every missing flag (exit 2) and sends nothing', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'create', '--title', 'T'])).toBe(2);
    expect(f.stderr()).toContain('error: missing required flags: --account, --public-id, --public or --private');
    expect(f.stdout()).toBe('');
  });

  it('a bad --attendee is exit 2 with a clear message', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'create', '--attendee', 'Ada <ada@example>'])).toBe(2);
    expect(f.stderr()).toContain(`error: --attendee must look like "Name <email@example.com>" or "email@example.com", not 'Ada <ada@example>'`);
  });
});

describe('conferences list', () => {
  it('parses --filter, --sort, paging and --with-trashed into the list query', async () => {
    expect(await parse(['conferences', 'list', '--filter', 'is_occurred=false', '--sort', '-started_at', '--page', '2', '--page-size', '5', '--with-trashed'])).toMatchObject({
      query: { filter_attribute: 'is_occurred', filter_operator: 'Equal', filter_value: 'false', order_by: 'started_at', order_direction: 'desc', page_number: 2, page_size: 5, with_trashed: true },
    });
  });

  it('sends the first filter and applies the others to the rows --all streams', async () => {
    f = await withProfile();
    const running = { ...CONF, id: 4, public_id: 'demo', is_occurred: true, started_at: '2026-03-01T10:00:00.000Z', ended_at: null };
    const ended = { ...running, id: 5, public_id: 'retro', ended_at: '2026-03-01T11:00:00.000Z' };
    api()
      .intercept({ path: (p: string) => p.startsWith(`${P}/online_conferences?`) && new URL(p, ORIGIN).searchParams.get('filter_attribute') === 'is_occurred' && new URL(p, ORIGIN).searchParams.get('filter_value') === '1', method: 'GET' })
      .reply(200, page([running, ended]), JSON_HEADERS);
    expect(await f.run(['conferences', 'list', '--all', '--filter', 'is_occurred=1', '--filter', 'ended_at:null', '-o', 'json', '--fields', 'id,public_id'])).toBe(0);
    expect(f.stderr()).toBe('');
    expect(JSON.parse(f.stdout())).toEqual([{ id: 4, public_id: 'demo' }]);
  });

  it('a table on a terminal shows the conference columns', async () => {
    f = await withProfile({ tty: true, env: { NO_COLOR: '1' } });
    api().intercept({ path: `${P}/online_conferences`, method: 'GET' }).reply(200, page([{ ...CONF, started_at: null, ended_at: null }]), JSON_HEADERS);
    expect(await f.run(['conferences', 'list'])).toBe(0);
    const header = f.stdout().split('\n').find((l) => l.includes('public_id'))!;
    expect(header.split(/[\s│|]+/).filter(Boolean)).toEqual(conferences.CONFERENCE_TABLE_COLUMNS);
    expect(f.stdout()).toContain('weekly-sync');
  });

  it('refuses a boolean filter that is not true/false/1/0 before any request (exit 2)', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'list', '--filter', 'is_public=yes'])).toBe(2);
    expect(f.stderr()).toBe("error: 'is_public' is true or false, not 'yes'\nhint: e.g. is_public=true or is_public=0\n");
  });
});

describe('conferences get, update, attendees', () => {
  it('get prints the conference; a table on a terminal', async () => {
    f = await withProfile({ tty: true, env: { NO_COLOR: '1' } });
    api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(200, { message: 'OK', data: CONF }, JSON_HEADERS);
    expect(await f.run(['conferences', 'get', '3'])).toBe(0);
    expect(f.stdout()).toContain('weekly-sync');
  });

  it('update fetches the conference and sends both fields, the title unchanged', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(200, { message: 'OK', data: CONF }, JSON_HEADERS);
    api()
      .intercept({ path: `${P}/online_conferences/3`, method: 'PATCH', body: JSON.stringify({ title: CONF.title, is_public: true }) })
      .reply(200, { message: 'OK', data: { ...CONF, is_public: true } }, JSON_HEADERS);
    expect(await f.run(['conferences', 'update', '3', '--public', '--fields', 'id,is_public'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual({ id: 3, is_public: true });
  });

  it('update with nothing to change is exit 2', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'update', '3'])).toBe(2);
    expect(f.stderr()).toBe('error: nothing to update\nhint: give --title, --public or --private, --data or --edit\n');
  });

  it('update of a started conference → exit 5 (given both fields, nothing is read first)', async () => {
    f = await withProfile();
    api()
      .intercept({ path: `${P}/online_conferences/3`, method: 'PATCH', body: '{"title":"X","is_public":false}' })
      .reply(409, 'Cannot modify an online conference that has started.', TEXT_HEADERS);
    expect(await f.run(['conferences', 'update', '3', '--title', 'X', '--private'])).toBe(5);
    expect(f.stderr()).toContain('Cannot modify an online conference that has started.');
  });

  it('attendees add sends the --data array then the flags, and prints the returned attendees', async () => {
    f = await withProfile();
    const body = [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Grace', email: 'grace@example.com' }];
    api().intercept({ path: `${P}/online_conferences/3/attendees`, method: 'POST', body: JSON.stringify(body) }).reply(200, { message: 'OK', data: [ATTENDEE] }, JSON_HEADERS);
    expect(await f.run(['conferences', 'attendees', 'add', '3', '--data', JSON.stringify([body[0]]), '--attendee', 'Grace <grace@example.com>'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual([ATTENDEE]);
  });

  it('attendees add beyond the maximum → exit 5 with the message on stderr', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/online_conferences/3/attendees`, method: 'POST' }).reply(409, 'Cannot exceed maximum attendee count.', TEXT_HEADERS);
    expect(await f.run(['conferences', 'attendees', 'add', '3', '--attendee', 'Grace <grace@example.com>'])).toBe(5);
    expect(f.stderr()).toContain('error: POST /online_conferences/3/attendees failed (409): Cannot exceed maximum attendee count.');
    expect(f.stdout()).toBe('');
  });

  it('attendees add without attendees is exit 2; --data must be an array', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'attendees', 'add', '3'])).toBe(2);
    expect(await f.run(['conferences', 'attendees', 'add', '3', '--data', '{}'])).toBe(2);
    expect(f.stderr()).toContain('--data must be a JSON array');
  });

  it('attendees list --all follows pages (ndjson)', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/online_conferences/3/attendees?page_size=100`, method: 'GET' }).reply(200, page([ATTENDEE], { last: 2, next: `${BASE}/online_conferences/3/attendees?page_number=2` }), JSON_HEADERS);
    api().intercept({ path: `${P}/online_conferences/3/attendees?page_number=2`, method: 'GET' }).reply(200, page([{ ...ATTENDEE, id: 10 }], { current: 2, last: 2 }), JSON_HEADERS);
    expect(await f.run(['conferences', 'attendees', 'list', '3', '--all', '-o', 'ndjson', '--fields', 'id'])).toBe(0);
    expect(f.stdout()).toBe('{"id":9}\n{"id":10}\n');
  });
});

describe('help', () => {
  it.each([
    [['create'], 'confctl conferences create --account 1'],
    [['get'], 'confctl conferences get 3'],
    [['update'], 'confctl conferences update 3'],
    [['attendees', 'list'], 'confctl conferences attendees list 3'],
    [['attendees', 'add'], 'confctl conferences attendees add 3 --attendee'],
  ])('conferences %j --help shows an example', async (sub, example) => {
    f = fake();
    expect(await f.run(['conferences', ...sub, '--help'])).toBe(0);
    expect(f.stdout()).toContain('Example:');
    expect(f.stdout()).toContain(example);
  });
});
