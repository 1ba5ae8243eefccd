import { describe, expect, it } from 'vitest';
import { createStreams } from '../../src/cli/context.js';
import { renderItem } from '../../src/cli/output/index.js';
import { type Fake, JSON_HEADERS, ORIGIN, page, USERS, withProfile } from './helpers.js';

const P = '/api/public/v2.0';
const api = (f: Fake) => f.agent.get(ORIGIN);
const RECORDINGS = [
  { id: 1, online_conference_id: 3, status: 1, file_name: null },
  { id: 2, online_conference_id: 3, status: 3, file_name: 'a.wav' },
  { id: 3, online_conference_id: 3, status: 4, file_name: null },
];

describe('--fields names are checked', () => {
  it('an unknown name is exit 2 listing the valid fields (not a column of nulls)', async () => {
    const f = await withProfile();
    api(f).intercept({ path: `${P}/users/1`, method: 'GET' }).reply(200, { message: 'OK', data: USERS[0] }, JSON_HEADERS);
    expect(await f.run(['users', 'get', '1', '--fields', 'id,emial', '-o', 'json'])).toBe(2);
    expect(f.stdout()).toBe('');
    expect(f.stderr()).toContain('error: unknown field for --fields: emial');
    expect(f.stderr()).toMatch(/hint: fields: id, department_id, first_name, .*email.*department_name/);
  });

  it('also on an empty list (from the contract), and on a list before anything is printed', async () => {
    const f = await withProfile();
    api(f).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--fields', 'id,nope', '-o', 'csv'])).toBe(2);
    expect(f.stderr()).toContain('unknown field for --fields: nope');
    const g = await withProfile();
    api(g).intercept({ path: `${P}/customers`, method: 'GET' }).reply(200, page([{ id: 1, address: null }]), JSON_HEADERS);
    expect(await g.run(['customers', 'list', '--fields', 'id,address.zone,x', '-o', 'json'])).toBe(2);
    expect(g.stdout()).toBe('');
    expect(g.stderr()).toContain('unknown fields for --fields: address.zone, x');
    expect(g.stderr()).toContain('address.city');
  });

  it('a misspelt contract field is refused before the request, with a did-you-mean', async () => {
    const g = await withProfile();
    expect(await g.run(['customers', 'list', '--fields', 'id,address.ctiy,x', '-o', 'json'])).toBe(2);
    expect(g.agent.requests).toEqual([]);
    expect(g.stderr()).toContain('unknown field for --fields: address.ctiy (did you mean address.city?)');
  });

  it('contract fields absent from an answer, keys the answer has beyond the contract, and paths into work hours are fine', async () => {
    const f = await withProfile();
    api(f).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page([{ id: 1, extra: 'x', work_hours: null }]), JSON_HEADERS);
    expect(await f.run(['users', 'list', '--fields', 'id,avatar_url,extra,work_hours.monday', '-o', 'json'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual([{ id: 1, avatar_url: null, extra: 'x', 'work_hours.monday': null }]);
  });
});

describe('status labels in tables', () => {
  it('users: active/inactive in a table, numbers in json and csv', async () => {
    const f = await withProfile({ tty: true });
    api(f).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS);
    expect(await f.run(['users', 'list'])).toBe(0);
    expect(f.stdout()).toMatch(/│ 1 .*│ active\s+│/);
    expect(f.stdout()).toMatch(/│ 2 .*│ inactive\s+│/);
    const g = await withProfile();
    api(g).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS);
    expect(await g.run(['users', 'list', '-o', 'json', '--fields', 'id,status'])).toBe(0);
    expect(JSON.parse(g.stdout())).toEqual([{ id: 1, status: 1 }, { id: 2, status: 0 }]);
    const h = await withProfile();
    api(h).intercept({ path: `${P}/users`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS);
    expect(await h.run(['users', 'list', '-o', 'csv', '--fields', 'id,status'])).toBe(0);
    expect(h.stdout()).toBe('id,status\n1,1\n2,0\n');
  });

  it('recordings: Recording/Finished/Failed in a table; a user get table too', async () => {
    const f = await withProfile({ tty: true });
    api(f).intercept({ path: `${P}/online_conferences/3/recordings`, method: 'GET' }).reply(200, page(RECORDINGS), JSON_HEADERS);
    expect(await f.run(['recordings', 'list', '3', '--fields', 'id,status'])).toBe(0);
    expect(f.stdout()).toMatch(/│ 1\s+│ Recording\s+│[\s\S]*│ 2\s+│ Finished\s+│[\s\S]*│ 3\s+│ Failed\s+│/);
    const g = await withProfile({ tty: true });
    api(g).intercept({ path: `${P}/users/2`, method: 'GET' }).reply(200, { message: 'OK', data: USERS[1] }, JSON_HEADERS);
    expect(await g.run(['users', 'get', '2'])).toBe(0);
    expect(g.stdout()).toMatch(/│ status\s+│ inactive\s+│/);
  });
});

describe('tables', () => {
  const capture = (io: { columns?: number; stderrColumns?: number; env?: Record<string, string> }) => {
    let out = '';
    const streams = createStreams(
      { stdout: { write: (s: string) => (out += s), isTTY: true, columns: io.columns }, stderr: { write: () => true, columns: io.stderrColumns }, stdin: process.stdin },
      { NO_COLOR: '1', ...io.env },
    );
    return { streams, out: () => out };
  };
  const wide = { id: 1, title: 'x'.repeat(150) };

  it('use the terminal width: a 200-column terminal shows 150 characters whole', async () => {
    const c = capture({ columns: 200 });
    await renderItem(c.streams, wide, { format: 'table' });
    expect(c.out()).toContain('x'.repeat(150));
    expect(c.out()).not.toContain('…');
  });

  it("stdout's width unknown: stderr's terminal or COLUMNS, else nothing is truncated (never 80 assumed)", async () => {
    for (const io of [{ stderrColumns: 200 }, { env: { COLUMNS: '200' } }, {}]) {
      const c = capture(io);
      await renderItem(c.streams, wide, { format: 'table' });
      expect(c.out()).toContain('x'.repeat(150));
    }
    const narrow = capture({ stderrColumns: 60 });
    await renderItem(narrow.streams, wide, { format: 'table' });
    for (const line of narrow.out().trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('get pretty-prints nested JSON over several lines', async () => {
    const c = capture({ columns: 120 });
    await renderItem(c.streams, { id: 1, address: { city: 'London', country: 'UK' } }, { format: 'table' });
    const lines = c.out().split('\n');
    expect(lines.some((l) => /│ address\s+│ \{\s+│/.test(l))).toBe(true);
    expect(lines.some((l) => /│\s+│ {3}"city": "London",\s+│/.test(l))).toBe(true);
    expect(lines.some((l) => /│\s+│ {3}"country": "UK"\s+│/.test(l))).toBe(true);
  });
});
