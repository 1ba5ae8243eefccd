import { ADDRESS_PARTS } from '../../src/contract/resource-fields.js';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createStreams } from '../../src/cli/context.js';
import { listWriter, renderItem, type Row } from '../../src/cli/output/index.js';
import { fitWidths } from '../../src/cli/output/table.js';
import type { OutputFormat } from '../../src/config/profiles.js';

const ADDRESS_COLUMNS = ADDRESS_PARTS.map((p) => `address.${p}`).join(',');
const ROWS = [
  { id: 1, name: 'Ada, "the first"', address: { city: 'London' }, deleted_at: null },
  { id: 2, name: 'Multi\nline', address: null, deleted_at: '2026-01-31T09:30:00.000Z' },
];

function capture(tty = false, width = 80) {
  let out = '';
  let err = '';
  const streams = createStreams({ stdout: { write: (s: string) => (out += s), isTTY: tty, columns: width }, stderr: { write: (s: string) => (err += s) }, stdin: process.stdin }, {});
  return { streams, out: () => out, err: () => err };
}

async function list(format: OutputFormat, fields?: string[], pages: readonly Row[][] = [ROWS]) {
  const c = capture();
  const w = listWriter(c.streams, { format, fields, columns: ['id', 'name'] });
  for (const p of pages) await w.write(p);
  await w.end();
  return c.out();
}

describe('lists', () => {
  it('json prints the data array', async () => expect(JSON.parse(await list('json'))).toEqual(ROWS));
  it('yaml prints the data array', async () => expect(parseYaml(await list('yaml'))).toEqual(ROWS));
  it('ndjson prints one object per line', async () => {
    expect((await list('ndjson')).split('\n')).toEqual([JSON.stringify(ROWS[0]), JSON.stringify(ROWS[1]), '']);
  });
  it('csv has a header, RFC 4180 quoting, LF line ends and an address as its eight dotted columns', async () => {
    expect(await list('csv')).toBe(
      `id,name,${ADDRESS_COLUMNS},deleted_at\n` +
        '1,"Ada, ""the first""",,,London,,,,,,\n' +
        '2,"Multi\nline",,,,,,,,,2026-01-31T09:30:00.000Z\n',
    );
  });
  it('csv keeps other objects (work hours) as one JSON cell', async () => {
    expect(await list('csv', undefined, [[{ id: 1, work_hours: { monday: [] } }]])).toBe('id,work_hours\n1,"{""monday"":[]}"\n');
  });
  it('csv writes one header across pages, and --fields picks dotted paths', async () => {
    expect(await list('csv', ['id', 'address.city'], [[ROWS[0]], [ROWS[1]]])).toBe('id,address.city\n1,London\n2,\n');
  });
  it('table shows the default columns, without colour', async () => {
    const out = await list('table');
    expect(out).toContain('│ id │ name');
    expect(out).toContain('Ada, "the first"');
    expect(out).not.toContain('London');
    expect(out).not.toMatch(/\u001b\[/);
  });
  it('table fits the terminal width', async () => {
    const c = capture(true, 40);
    const w = listWriter(c.streams, { format: 'table' });
    await w.write([{ id: 1, text: 'x'.repeat(200) }]);
    await w.end();
    for (const line of c.out().replace(/\u001b\[\d+m/g, '').trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(c.out()).toContain('…');
  });
  it('an empty table says so on stderr; an empty json list is []', async () => {
    const c = capture();
    const w = listWriter(c.streams, { format: 'table' });
    await w.end();
    expect([c.out(), c.err()]).toEqual(['', 'No results.\n']);
    expect(JSON.parse(await list('json', undefined, [[]]))).toEqual([]);
  });
  it('fitWidths shrinks the widest column first', () => expect(fitWidths([10, 30], 30)).toEqual([10, 17]));
});

describe('single resource', () => {
  const item = ROWS[0];
  it.each([
    ['json', (s: string) => expect(JSON.parse(s)).toEqual(item)],
    ['yaml', (s: string) => expect(parseYaml(s)).toEqual(item)],
    ['ndjson', (s: string) => expect(s).toBe(`${JSON.stringify(item)}\n`)],
    ['csv', (s: string) => expect(s).toBe(`id,name,${ADDRESS_COLUMNS},deleted_at\n1,"Ada, ""the first""",,,London,,,,,,\n`)],
    ['table', (s: string) => expect(s).toMatch(/│ address\s+│ \{\s+│\n│\s+│   "city": "London"\s+│\n│\s+│ }\s+│/)],
  ] as const)('%s', async (format, check) => {
    const c = capture();
    await renderItem(c.streams, item, { format });
    check(c.out());
  });
  it('--fields selects keys in order', async () => {
    const c = capture();
    await renderItem(c.streams, item, { format: 'json', fields: ['name', 'id'] });
    expect(c.out()).toBe('{\n  "name": "Ada, \\"the first\\"",\n  "id": 1\n}\n');
  });
});

describe('streams', () => {
  const s = (tty: boolean, env: Record<string, string>) =>
    createStreams({ stdout: { write: () => 0, isTTY: tty }, stderr: { write: () => 0 }, stdin: Object.assign(process.stdin, {}) }, env);
  it('colours a terminal unless NO_COLOR; FORCE_COLOR wins', () => {
    expect(s(true, {}).color).toBe(true);
    expect(s(true, { NO_COLOR: '1' }).color).toBe(false);
    expect(s(false, { FORCE_COLOR: '1' }).color).toBe(true);
    expect(s(true, { FORCE_COLOR: '0' }).color).toBe(false);
  });
});
