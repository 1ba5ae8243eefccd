import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesAll, matchesFilter, type RowFilter } from '../../src/contract/list-filter.js';
import { CONFERENCE_LIST, CUSTOMER_LIST, type ListSpec, OPERATORS, USER_LIST } from '../../src/contract/list-specs.js';
import { seedDemo } from '../../src/admin/seed/demo.js';
import { type Fixture, setup } from '../server/fixtures.js';
import { atOnce } from '../at-once.js';

type Row = Record<string, unknown>;

/**
 * The client-side evaluator against the real server: for every attribute × operator and a set of
 * values drawn from the data (exact, case-changed, substrings, `%`/`_`, bounds), the ids the
 * server's filter answers equal the ids the evaluator keeps from the unfiltered list.
 */
let fx: Fixture;
let media: string;

async function all(path: string, query: Record<string, string>): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const qs = new URLSearchParams({ ...query, with_trashed: 'true', page_size: '100', page_number: String(page) });
    const res = await fx.call('GET', `${path}?${qs.toString()}`);
    expect(res.status, res.body).toBe(200);
    const body = JSON.parse(res.body) as { data: Row[]; last_page: number };
    rows.push(...body.data);
    if (page >= body.last_page) return rows;
  }
}

beforeAll(() => {
  fx = setup();
  media = mkdtempSync(join(tmpdir(), 'confctl-filter-'));
  atOnce(seedDemo(fx.store, fx.tenant.id, { mediaDir: media }));
  // Edge cases the demo lacks: non-ASCII case (not folded by SQL), LIKE wildcards, empty parts.
  const dept = fx.store.departments.create(fx.tenant.id, 'Ünits_100%');
  fx.store.users.insert(fx.tenant.id, { first_name: 'élodie', last_name: 'Ünal', email: 'Elodie_100%@X.test', department_id: dept.id, timezone: null, role: null });
  fx.store.users.insert(fx.tenant.id, { first_name: 'ÉLODIE', last_name: 'unal', email: 'elodie2@x.test', department_id: null, status: 1 });
  fx.store.users.insert(fx.tenant.id, { first_name: '😀 Zed', last_name: '\uffffend', email: 'zed@x.test' });
  fx.store.customers.insert(fx.tenant.id, { first_name: 'Ana', last_name: '50%_off', email: 'ana@x.test', address: { line_1: '', city: 'Köln', country: '' } });
  fx.store.customers.insert(fx.tenant.id, { first_name: 'Bo', last_name: 'B', email: 'bo@x.test', address: { region: 'R', postal_code: '', country: 'DE' } });
  fx.store.customers.insert(fx.tenant.id, { first_name: 'Cy', last_name: 'C', email: 'cy@x.test', address: { line_1: '' } });
  // Enough conferences to list, public or not, waiting, running or ended, with the same edge-case titles.
  const account = fx.store.conferences.get(fx.tenant.id, 1)!.online_conference_account_id;
  const titles = ['élodie', 'ÉLODIE sync', '50%_off', '😀 Zed', '\uffffend', 'Plain'];
  for (let i = 0; i < 24; i++) {
    const started = i % 3 === 0 ? null : `2026-0${1 + (i % 5)}-1${i % 10}T0${i % 10}:00:00.000Z`;
    fx.store.conferences.insert(fx.tenant.id, {
      online_conference_account_id: account, public_id: `edge-${i}`, title: titles[i % titles.length], is_public: i % 2 === 0,
      started_at: started, ended_at: started && i % 3 === 2 ? `2026-0${1 + (i % 5)}-1${i % 10}T1${i % 10}:00:00.000Z` : null,
    });
  }
});

afterAll(() => rmSync(media, { recursive: true, force: true }));

/** Values worth trying for one attribute, drawn from the rows' own values. */
function candidates(spec: ListSpec, attribute: string, rows: Row[], operand: (r: Row) => unknown): string[] {
  const type = spec.filters[attribute];
  if (type === 'boolean') return ['true', 'false', '1', '0'];
  const present = rows.map(operand).filter((v) => v !== null && v !== undefined);
  const sample = [present[0], present[Math.floor(present.length / 2)], present[present.length - 1]].filter((v) => v !== undefined);
  if (type === 'integer') {
    const nums = sample.map(Number);
    return [...new Set([...nums.map(String), String(nums[1] ?? 0 + 1), '0', '-1', '999999'])];
  }
  if (type === 'date') {
    const texts = sample.map(String);
    // The same instant in another zone, a date only, a date-time without seconds.
    const shifted = new Date(Date.parse(texts[1])).toISOString().replace('Z', '+00:00');
    return [...new Set([...texts, shifted, texts[1].slice(0, 10), `${texts[1].slice(0, 16)}Z`, '2000-01-01', '2999-12-31T00:00:00+02:00'])];
  }
  const texts = sample.map(String);
  const mid = texts[1] ?? 'x';
  return [...new Set([...texts, mid.toUpperCase(), mid.toLowerCase(), mid.slice(1, 4), mid.slice(0, 2).toUpperCase(), '%', '_', '0%', 'élodie', 'ÉLODIE', 'ü', 'Ü', ', ', 'zzz', '\ud83d\ude00', '\uffff'])];
}

/** Operand as the evaluator sees it, for drawing values. */
async function operandFor(spec: ListSpec, attribute: string) {
  const { filterOperand } = await import('../../src/contract/list-filter.js');
  return (r: Row) => filterOperand(spec, attribute, r);
}

/** Lists, with the attributes this data cannot exercise (no API deletes a conference, so no `deleted_at` values). */
const LISTS: [string, string, ListSpec, string[]][] = [
  ['users', '/users', USER_LIST, []],
  ['customers', '/customers', CUSTOMER_LIST, []],
  ['online conferences', '/online_conferences', CONFERENCE_LIST, ['deleted_at']],
];

describe.each(LISTS)('%s: the evaluator answers what the server answers', (_name, path, spec, skipped) => {
  it.each(Object.keys(spec.filters).filter((a) => !skipped.includes(a)))('%s, every operator', async (attribute) => {
    const rows = await all(path, {});
    expect(rows.length).toBeGreaterThan(20);
    const values = candidates(spec, attribute, rows, await operandFor(spec, attribute));
    let matchedSome = 0;
    for (const operator of OPERATORS) {
      const tries = operator === 'IsNull' || operator === 'NotNull' ? [undefined] : values;
      for (const value of tries) {
        if (operator !== 'Contains' && spec.filters[attribute] === 'integer' && !/^-?\d+$/.test(value!)) continue;
        const query: Record<string, string> = { filter_attribute: attribute, filter_operator: operator };
        if (value !== undefined) query.filter_value = value;
        const server = (await all(path, query)).map((r) => r.id);
        const filter: RowFilter = { attribute, operator, value };
        const client = rows.filter((r) => matchesFilter(spec, r, filter)).map((r) => r.id);
        expect(client, `${attribute} ${operator} ${JSON.stringify(value)}`).toEqual(server);
        if (server.length && server.length < rows.length) matchedSome++;
      }
    }
    // Not a comparison of empty sets: most tries select a proper, non-empty subset.
    expect(matchedSome).toBeGreaterThan(2);
  });
});

describe('matchesAll', () => {
  it('ANDs the filters and keeps SQL null rules', () => {
    const row = { id: 3, email: 'Ada@ACME.com', timezone: null, department_name: 'R&D' };
    const f = (attribute: string, operator: RowFilter['operator'], value?: string): RowFilter => ({ attribute, operator, value });
    expect(matchesAll(USER_LIST, row, [f('email', 'Contains', '@acme'), f('department', 'Equal', 'r&d')])).toBe(true);
    expect(matchesAll(USER_LIST, row, [f('email', 'Contains', '@acme'), f('timezone', 'NotEqual', 'UTC')])).toBe(false);
    expect(matchesAll(USER_LIST, row, [f('timezone', 'IsNull'), f('id', 'Contains', '3')])).toBe(true);
    expect(matchesAll(USER_LIST, row, [])).toBe(true);
  });
});
