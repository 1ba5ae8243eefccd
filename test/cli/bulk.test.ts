import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { countBar, countLine } from '../../src/cli/bulk/progress.js';
import { type Fake, JSON_HEADERS, ORIGIN, TEXT_HEADERS, withProfile } from './helpers.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const P = '/api/public/v2.0';
const file = (name: string, text: string) => {
  const path = join(f.configDir, name);
  writeFileSync(path, text);
  return path;
};
const ndjson = (n: number, bad: number[] = []) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ first_name: `F${i + 1}`, last_name: 'L', email: bad.includes(i + 1) ? `taken${i + 1}@example.com` : `c${i + 1}@example.com` })).join('\n');

/** Stubs POST /customers: 400 for e-mails starting `taken` (a rule only the server can check), else the customer; records the bodies and start times. */
function stubCreate(times: number, delayMs = 0) {
  const seen: { body: any; at: number }[] = [];
  const scope = f.agent
    .get(ORIGIN)
    .intercept({ path: `${P}/customers`, method: 'POST' })
    .reply((req) => {
      const body = JSON.parse(String(req.body));
      seen.push({ body, at: performance.now() });
      if (String(body.email).startsWith('taken')) {
        const errors = { email: ['The email has already been taken.'] };
        return { statusCode: 400, data: { message: errors.email[0], errors }, responseOptions: JSON_HEADERS };
      }
      return { statusCode: 200, data: { message: 'Customer created.', data: { id: seen.length, ...body } }, responseOptions: JSON_HEADERS };
    });
  if (delayMs) scope.delay(delayMs);
  scope.times(times);
  return seen;
}

/**
 * Most requests in flight at once, each taking `delayMs` from its start (a request cannot end
 * sooner; 10 ms are allowed for timers firing early). Starts of an unbounded burst fall within
 * a few ms of each other, so the slack cannot hide a breach. The delays (300 ms, 200 ms) leave a
 * busy machine that much room: a burst's starts would have to stall for longer than a delay
 * before "uses them all" could count one too few.
 */
const maxInFlight = (starts: number[], delayMs: number) => Math.max(...starts.map((t) => starts.filter((s) => s <= t && s + delayMs - 10 > t).length));

describe('customers create --from-file', () => {
  it('a list export re-imports: dotted address columns nest, response-only columns (id, name, *_at) are dropped', async () => {
    f = await withProfile();
    const seen = stubCreate(1);
    const csv = [
      'id,first_name,middle_name,last_name,email,contact_number,address.line_1,address.city,created_at,updated_at,name,deleted_at',
      '7,Ada,,Lovelace,ada@example.com,+441234567890,1 Main St,London,2026-01-01T00:00:00.000Z,2026-01-02T00:00:00.000Z,Ada Lovelace,',
    ].join('\n');
    expect(await f.run(['customers', 'create', '--from-file', file('c.csv', csv), '-o', 'json'])).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0].body).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', contact_number: '+441234567890', address: { line_1: '1 Main St', city: 'London' } });
    for (const key of ['id', 'name', 'created_at', 'updated_at', 'deleted_at']) expect(seen[0].body).not.toHaveProperty(key);
  });

  it.each([[3], [undefined]])('never has more than N requests in flight (--concurrency %s, default 4), and uses them all', async (n) => {
    f = await withProfile();
    const seen = stubCreate(12, 300);
    const args = ['customers', 'create', '--from-file', file('c.ndjson', ndjson(12)), '-o', 'ndjson', ...(n ? ['--concurrency', String(n)] : [])];
    expect(await f.run(args)).toBe(0);
    expect(maxInFlight(seen.map((s) => s.at), 300)).toBe(n ?? 4);
    // results in input order whatever order they completed in
    expect(f.stdout().trim().split('\n').map((l) => JSON.parse(l).first_name)).toEqual(Array.from({ length: 12 }, (_, i) => `F${i + 1}`));
    expect(f.stderr()).toBe('created 12, failed 0 of 12\n');
  });

  it('--concurrency 1 sends one after the other, in file order', async () => {
    f = await withProfile();
    const seen = stubCreate(5, 200);
    expect(await f.run(['customers', 'create', '--from-file', file('c.ndjson', ndjson(5)), '--concurrency', '1'])).toBe(0);
    expect(maxInFlight(seen.map((s) => s.at), 200)).toBe(1);
    expect(seen.map((s) => s.body.first_name)).toEqual(['F1', 'F2', 'F3', 'F4', 'F5']);
  });

  it('draws a progress bar when stderr is a terminal (and only then)', async () => {
    f = await withProfile();
    (f.ctx.streams as { stderrIsTTY: boolean }).stderrIsTTY = true;
    stubCreate(3);
    expect(await f.run(['customers', 'create', '--from-file', file('c.ndjson', ndjson(3))])).toBe(0);
    expect(f.stderr()).toMatch(/^\r\[#+-*\]  1\/3/);
    expect(f.stderr()).toMatch(/3\/3\s*\r\s+\rcreated 3, failed 0 of 3\n$/);
  });

  it('reports the refused records with their lines and field errors; validation only → exit 6', async () => {
    f = await withProfile();
    const seen = stubCreate(5);
    const csv = 'first_name,last_name,email,address.city\nA,L,a@x.io,Paris\nB,L,taken-b@x.io,\n"C, Jr",L,c@x.io,\nD,L,taken-d@x.io,Rome\nE,L,e@x.io,\n';
    expect(await f.run(['customers', 'create', '--from-file', file('c.csv', csv)])).toBe(6);
    // Every record is sent as a complete body: all six keys, null for the missing, {} for no address.
    expect(seen.find((s) => s.body.first_name === 'A')!.body).toEqual({ first_name: 'A', middle_name: null, last_name: 'L', email: 'a@x.io', contact_number: null, address: { city: 'Paris' } });
    expect(seen.find((s) => s.body.first_name === 'E')!.body).toEqual({ first_name: 'E', middle_name: null, last_name: 'L', email: 'e@x.io', contact_number: null, address: {} });
    expect(JSON.parse(f.stdout()).map((c: any) => c.first_name)).toEqual(['A', 'C, Jr', 'E']);
    expect(f.stderr()).toContain('line 3: failed (400): The email has already been taken.\n  email: The email has already been taken.\n');
    expect(f.stderr()).toContain('line 5: failed (400)');
    expect(f.stderr()).toContain('error: created 3, failed 2 of 5\n');
  });

  it('--errors FILE gets the failures as NDJSON (line, status, message, errors, record)', async () => {
    f = await withProfile();
    stubCreate(3);
    const errors = join(f.configDir, 'failed.ndjson');
    expect(await f.run(['customers', 'create', '--from-file', file('c.ndjson', ndjson(3, [2])), '--errors', errors])).toBe(6);
    expect(readFileSync(errors, 'utf8').trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { line: 2, status: 400, message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] }, record: { first_name: 'F2', last_name: 'L', email: 'taken2@example.com' } },
    ]);
    expect(f.stderr()).not.toContain('line 2');
    expect(f.stderr()).toContain(`created 2, failed 1 of 3`);
    expect(f.stderr()).toContain(`hint: failed records written to ${errors}`);
  });

  it('mixed failures exit with the most severe code (5xx → 1; 401 → 3)', async () => {
    for (const [status, code] of [[500, 1], [401, 3]] as const) {
      f = await withProfile();
      const api = f.agent.get(ORIGIN);
      api.intercept({ path: `${P}/customers`, method: 'POST' }).reply(400, { message: 'bad', errors: { email: ['bad'] } }, JSON_HEADERS);
      api.intercept({ path: `${P}/customers`, method: 'POST' }).reply(status, 'nope', TEXT_HEADERS);
      expect(await f.run(['customers', 'create', '--from-file', file('c.ndjson', ndjson(2)), '--concurrency', '1'])).toBe(code);
      expect(f.stderr()).toContain(`line 2: failed (${status}): nope`);
      f.agent.assertNoPendingInterceptors();
    }
  });

  it('reads stdin with -, detecting the format from the content', async () => {
    f = await withProfile({ stdin: '[{"first_name":"A","last_name":"L","email":"a@x.io"}]' });
    stubCreate(1);
    expect(await f.run(['customers', 'create', '--from-file', '-', '--fields', 'id,email'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual([{ id: 1, email: 'a@x.io' }]);
  });

  it.each([
    [['--from-file', 'F', '--email', 'x@y.z'], /--from-file does not go with --email/],
    [['--from-file', 'F', '--concurrency', '0'], /--concurrency must be an integer from 1 to 32/],
    [['--errors', 'E', '--email', 'x@y.z'], /--errors goes with --from-file/],
    [['--from-file', 'BAD'], /line 3: not valid JSON/],
    [['--from-file', '/nonexistent/x.csv'], /cannot read --from-file \/nonexistent\/x.csv: ENOENT/],
  ])('usage errors exit 2 before any request: %j', async (args, message) => {
    f = await withProfile();
    const bad = file('bad.ndjson', '{"a":1}\n{"a":2}\n{"a":\n');
    const code = await f.run(['customers', 'create', ...args.map((a) => (a === 'F' || a === 'BAD' ? bad : a))]);
    expect(code).toBe(2);
    expect(f.stderr()).toMatch(message);
    expect(f.stdout()).toBe('');
  });
});

describe('conferences attendees add --from-file', () => {
  it('sends one attendee per request in file order; the ones past the maximum fail with 409 and their lines', async () => {
    f = await withProfile();
    const bodies: unknown[] = [];
    f.agent
      .get(ORIGIN)
      .intercept({ path: `${P}/online_conferences/3/attendees`, method: 'POST' })
      .reply((req) => {
        const body = JSON.parse(String(req.body));
        bodies.push(body);
        if (bodies.length > 3) return { statusCode: 409, data: 'Cannot exceed maximum attendee count.', responseOptions: TEXT_HEADERS };
        return { statusCode: 200, data: { message: 'OK', data: [{ id: bodies.length, ...body[0] }] }, responseOptions: JSON_HEADERS };
      })
      .times(5);
    const csv = 'name,email\nA,a@x.io\n"B, Jr",b@x.io\nC,c@x.io\nD,d@x.io\nE,e@x.io\n';
    expect(await f.run(['conferences', 'attendees', 'add', '3', '--from-file', file('a.csv', csv), '-o', 'ndjson'])).toBe(5);
    expect(bodies).toEqual(['a', 'b', 'c', 'd', 'e'].map((c, i) => [{ name: i === 1 ? 'B, Jr' : c.toUpperCase(), email: `${c}@x.io` }]));
    expect(f.stdout().trim().split('\n').map((l) => JSON.parse(l).email)).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
    expect(f.stderr()).toContain('line 5: failed (409): Cannot exceed maximum attendee count.\nline 6: failed (409): Cannot exceed maximum attendee count.\n');
    expect(f.stderr()).toContain('error: added 3, failed 2 of 5');
  });

  it('--from-file does not go with --attendee', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'attendees', 'add', '3', '--from-file', 'x.csv', '--attendee', 'A <a@x.io>'])).toBe(2);
    expect(f.stderr()).toContain('--from-file does not go with --attendee');
  });
});

describe('progress', () => {
  it('a count bar, throttled, cleared at the end', () => {
    expect(countLine(7, 20, 1, 60)).toBe(`[${'#'.repeat(14)}${'-'.repeat(26)}]  7/20  1 failed`);
    let out = '';
    let t = 0;
    const bar = countBar({ write: (s: string) => (out += s) }, 3, 40, () => t);
    bar.update(1, 0);
    t = 50;
    bar.update(2, 0); // throttled
    bar.update(3, 1); // the last one always draws
    bar.done();
    expect(out).toContain('1/3');
    expect(out).not.toContain('2/3');
    expect(out).toContain('3/3  1 failed');
    expect(out.endsWith('\r')).toBe(true);
  });
});
