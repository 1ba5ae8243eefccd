import { ADDRESS_PARTS, RESOURCE_FIELDS } from '../../src/contract/resource-fields.js';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createStreams } from '../../src/cli/context.js';
import { BASE, type Fake, JSON_HEADERS, ORIGIN, page, withProfile } from './helpers.js';

/** `--all` through the whole CLI in-process: 3 pages from the scripted server, every format, Ctrl-C, progress. */
const P = '/api/public/v2.0';
const ROWS = Array.from({ length: 6 }, (_, i) => ({
  id: i + 1,
  name: `User ${i + 1}, "quoted"`,
  email: `u${i + 1}@acme.com`,
  address: i % 2 ? null : { city: `City ${i + 1}` },
  created_at: `2026-01-0${i + 1}T00:00:00.000Z`,
}));

interface Run {
  f: Fake;
  out: () => string;
  err: () => string;
  interrupt: () => void;
  /** Called with each stdout chunk (to interrupt at a chosen moment). */
  onOut?: (chunk: string) => void;
  /** Stubs left unused on purpose (a page never fetched after Ctrl-C). */
  unused?: number;
}

let r: Run;
afterEach(() => {
  if (r.unused === undefined) r.f.agent.assertNoPendingInterceptors();
  else expect(r.f.agent.pendingInterceptors()).toHaveLength(r.unused);
});

/** A profile'd fake whose stdout/stderr TTY-ness is switchable, with a running clock and a fake Ctrl-C. */
async function setup(o: { stdoutTty?: boolean; stderrTty?: boolean } = {}): Promise<Run> {
  const f = await withProfile();
  let out = '';
  let err = '';
  const handlers = new Set<() => void>();
  const run: Run = { f, out: () => out, err: () => err, interrupt: () => [...handlers].forEach((h) => h()) };
  f.ctx.streams = createStreams(
    {
      stdout: { write: (s: string) => ((out += s), run.onOut?.(s), true), isTTY: o.stdoutTty ?? false, columns: 200 },
      stderr: { write: (s: string) => (err += s), isTTY: o.stderrTty ?? false },
      stdin: Readable.from([]),
    },
    { ...f.ctx.env, NO_COLOR: '1' },
  );
  let t = Date.parse('2026-01-31T09:30:00.000Z');
  f.ctx.now = () => new Date((t += 400));
  f.ctx.onInterrupt = (h) => (handlers.add(h), () => handlers.delete(h));
  return run;
}

/** Three pages of two rows, linked by next_page_url; answers the third page's interceptor. */
function threePages(f: Fake, query = '') {
  const api = f.agent.get(ORIGIN);
  const q = query ? `${query}&` : '';
  const url = (n: number) => `${P}/users?${q}page_size=2${n > 1 ? `&page_number=${n}` : ''}`;
  for (const n of [1, 2, 3]) {
    api
      .intercept({ path: url(n), method: 'GET' })
      .reply(200, page(ROWS.slice((n - 1) * 2, n * 2), { current: n, last: 3, total: 6, next: n < 3 ? `${ORIGIN}${url(n + 1)}` : null }), JSON_HEADERS);
  }
}

const pick = (fields: string[]) => ROWS.map((row) => Object.fromEntries(fields.map((k) => [k, k === 'address.city' ? (row.address?.city ?? null) : row[k as keyof typeof row]])));

describe('--all across 3 pages, every format', () => {
  it('json is one array, every row in order, byte for byte JSON.stringify(rows, null, 2)', async () => {
    r = await setup();
    threePages(r.f);
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', 'json'])).toBe(0);
    expect(JSON.parse(r.out())).toEqual(ROWS);
    expect(r.out()).toBe(`${JSON.stringify(ROWS, null, 2)}\n`);
    expect(r.err()).toBe('');
  });

  it('json with --fields', async () => {
    r = await setup();
    threePages(r.f);
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', 'json', '--fields', 'id,address.city'])).toBe(0);
    expect(JSON.parse(r.out())).toEqual(pick(['id', 'address.city']));
  });

  it('ndjson writes one line per row', async () => {
    r = await setup();
    threePages(r.f);
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', 'ndjson', '--fields', 'id,email'])).toBe(0);
    expect(r.out()).toBe(pick(['id', 'email']).map((x) => `${JSON.stringify(x)}\n`).join(''));
  });

  it('csv writes one header and RFC 4180 rows', async () => {
    r = await setup();
    threePages(r.f);
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', 'csv', '--fields', 'id,name,address.city'])).toBe(0);
    const lines = r.out().split('\n');
    expect(lines[0]).toBe('id,name,address.city');
    expect(lines.slice(1, 4)).toEqual(['1,"User 1, ""quoted""",City 1', '2,"User 2, ""quoted""",', '3,"User 3, ""quoted""",City 3']);
    expect(lines).toHaveLength(8);
    expect(lines[7]).toBe('');
  });

  it('yaml is one sequence of every row', async () => {
    r = await setup();
    threePages(r.f);
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', 'yaml'])).toBe(0);
    expect(parseYaml(r.out())).toEqual(ROWS);
  });

  it('table holds every row under one header', async () => {
    r = await setup({ stdoutTty: true });
    threePages(r.f);
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '--fields', 'id,email'])).toBe(0);
    expect(r.out().match(/│ id\s+│ email/g)).toHaveLength(1);
    for (const row of ROWS) expect(r.out()).toMatch(new RegExp(`│ ${row.id}\\s+│ ${row.email}`));
  });

  it('--raw --all prints each envelope as one ndjson line', async () => {
    r = await setup();
    threePages(r.f);
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '--raw'])).toBe(0);
    const pages = r.out().trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(pages.map((p) => p.current_page)).toEqual([1, 2, 3]);
    expect(pages.flatMap((p) => p.data)).toEqual(ROWS);
  });
});

describe('a single page and a single resource, every format', () => {
  const one = ROWS[0];
  it.each([
    ['json', (s: string) => expect(JSON.parse(s)).toEqual({ id: 1, 'address.city': 'City 1' })],
    ['yaml', (s: string) => expect(parseYaml(s)).toEqual({ id: 1, 'address.city': 'City 1' })],
    ['ndjson', (s: string) => expect(s).toBe('{"id":1,"address.city":"City 1"}\n')],
    ['csv', (s: string) => expect(s).toBe('id,address.city\n1,City 1\n')],
    ['table', (s: string) => expect(s).toMatch(/│ address\.city\s+│ City 1\s+│/)],
  ] as const)('get -o %s --fields id,address.city', async (format, check) => {
    r = await setup();
    r.f.agent.get(ORIGIN).intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, { message: 'OK', data: one }, JSON_HEADERS);
    expect(await r.f.run(['users', 'get', '1', '-o', format, '--fields', 'id,address.city'])).toBe(0);
    check(r.out());
  });

  it.each([
    ['json', (s: string) => expect(JSON.parse(s)).toEqual(ROWS.slice(0, 2))],
    ['yaml', (s: string) => expect(parseYaml(s)).toEqual(ROWS.slice(0, 2))],
    ['ndjson', (s: string) => expect(s.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(ROWS.slice(0, 2))],
    // The header is the User schema's (rows stream), then the row's other keys, address as dotted columns.
    ['csv', (s: string) => expect(s.split('\n')[0]).toBe([...RESOURCE_FIELDS.User, ...ADDRESS_PARTS.map((p) => `address.${p}`)].join(','))],
    ['table', (s: string) => expect(s).toMatch(/│ 2\s+│ User 2, "quoted"/)],
  ] as const)('list -o %s (one page)', async (format, check) => {
    r = await setup();
    r.f.agent.get(ORIGIN).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page(ROWS.slice(0, 2)), JSON_HEADERS);
    expect(await r.f.run(['users', 'list', '-o', format])).toBe(0);
    check(r.out());
  });
});

describe('Ctrl-C during --all', () => {
  it('while writing page 2: page 2 is written whole, page 3 never fetched, the json array closed, exit 130', async () => {
    r = await setup();
    threePages(r.f);
    r.onOut = (chunk) => chunk.includes('"id": 3') && r.interrupt();
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', 'json'])).toBe(130);
    expect(JSON.parse(r.out())).toEqual(ROWS.slice(0, 4));
    expect(r.err()).toContain('error: interrupted after 4 rows');
    r.unused = 1;
  });

  it('while page 2 is in flight: stops at once, rows of page 1 as valid json', async () => {
    r = await setup();
    const api = r.f.agent.get(ORIGIN);
    api.intercept({ path: `${P}/users?page_size=100`, method: 'GET' }).reply(200, page(ROWS.slice(0, 2), { last: 3, total: 6, next: `${BASE}/users?page_number=2` }), JSON_HEADERS);
    api.intercept({ path: `${P}/users?page_number=2`, method: 'GET' }).reply(200, page(ROWS.slice(2, 4), { current: 2, last: 3, total: 6 }), JSON_HEADERS).delay(120_000);
    // The timers close over this run: one still pending when the test ends must not interrupt the next test's run.
    const run = r;
    r.onOut = () => setTimeout(() => run.interrupt(), 30);
    const started = Date.now();
    expect(await r.f.run(['users', 'list', '--all', '-o', 'json'])).toBe(130);
    // Stopping at once takes milliseconds; waiting for page 2 would take 120 s. The 15 s bound
    // sits far from both, so neither a busy machine nor a fast one can flip the answer.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(JSON.parse(r.out())).toEqual(ROWS.slice(0, 2));
    r.unused = 0; // page 2 was asked for, then abandoned
  });

  it('ndjson and csv keep complete lines only', async () => {
    for (const format of ['ndjson', 'csv']) {
      r = await setup();
      threePages(r.f);
      r.onOut = (chunk) => chunk.includes('u3@acme.com') && r.interrupt();
      expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', format, '--fields', 'id,email'])).toBe(130);
      const nl = '\n';
      expect(r.out().endsWith(nl)).toBe(true);
      expect(r.out().split(nl).filter(Boolean)).toHaveLength(format === 'csv' ? 5 : 4);
      expect(r.f.agent.pendingInterceptors()).toHaveLength(1);
      r.unused = 1;
    }
  });
});

describe('progress line', () => {
  it('on a terminal stderr: rows fetched of the total, redrawn with \\r and cleared; never on stdout', async () => {
    r = await setup({ stderrTty: true });
    threePages(r.f);
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', 'ndjson'])).toBe(0);
    expect(r.err()).toContain('\rFetched 2/6 rows (33%)');
    expect(r.err()).toMatch(/\rFetched 6\/6 rows \(100%\), \d+ rows\/s/);
    expect(r.err()).toMatch(/\r +\r$/);
    expect(r.out()).not.toContain('Fetched');
    expect(r.out()).not.toContain('\r');
    expect(r.out().trimEnd().split('\n')).toHaveLength(6);
  });

  it('when stdout is the same terminal, the line is cleared before rows are written', async () => {
    r = await setup({ stderrTty: true, stdoutTty: true });
    threePages(r.f);
    const order: string[] = [];
    r.onOut = () => order.push(r.err().endsWith('\r') || r.err() === '' ? 'clear' : 'dirty');
    expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', 'ndjson'])).toBe(0);
    expect(order).toEqual(['clear', 'clear', 'clear']);
  });

  it('not at all when stderr is not a terminal, even if stdout is', async () => {
    for (const stdoutTty of [false, true]) {
      r = await setup({ stderrTty: false, stdoutTty });
      threePages(r.f);
      expect(await r.f.run(['users', 'list', '--all', '--page-size', '2', '-o', 'ndjson'])).toBe(0);
      expect(r.err()).toBe('');
    }
  });
});
