import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The cells of each row of the first Markdown table after `marker` in `text`. */
function tableAfter(text: string, marker: string): string[][] {
  const from = text.indexOf(marker);
  if (from < 0) throw new Error(`no "${marker}" in the text`);
  const lines = text.slice(from).split('\n');
  const start = lines.findIndex((l) => l.startsWith('| '));
  const rows: string[][] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((c) => c.trim()));
  }
  return rows;
}

/** One figure of `text` (whitespace folded): the groups of `pattern`'s match, as numbers. */
function figures(text: string, pattern: RegExp): number[] {
  const match = pattern.exec(text.replace(/\s+/g, ' '));
  if (!match) throw new Error(`README's Performance section does not say ${pattern}`);
  return match.slice(1).map(Number);
}

const p99 = (cell: string) => Number(cell.split('/')[1].trim());
const number = (cell: string) => Number(/[\d.]+/.exec(cell)![0]);

describe("the README's Performance section", () => {
  // The figures the README gives are those of the latest quiet run that docs/performance.md shows first.
  const readme = read('README.md');
  const section = readme.slice(readme.indexOf('## Performance'), readme.indexOf('## Development'));
  const rows = tableAfter(read('docs/performance.md'), '**A run on a quiet machine**');
  const row = (start: string) => {
    const found = rows.find((r) => r[0].startsWith(start));
    if (!found) throw new Error(`no row "${start}" in the latest scale table`);
    return found;
  };

  it('counts the list classes that meet every goal on both stores, and on each, as the table does', () => {
    const classes = rows.filter((r) => /cold p99 ≤ \d+ ms, warm p99 ≤ \d+ ms/.test(r[r.length - 1]));
    const met = (store: RegExp) => classes.filter((r) => store.test(r[r.length - 1])).length;
    expect(classes.length).toBeGreaterThan(50);
    expect(figures(section, /(\d+) of the (\d+) list classes meet every latency goal on both stores \([^)]*\), (\d+) on SQLite and (\d+) on PostgreSQL/)).toEqual([
      met(/SQLite met, PostgreSQL met$/),
      classes.length,
      met(/SQLite met/),
      met(/PostgreSQL met$/),
    ]);
  });

  it('gives the head-of-line p99, the peak RSS, the seed and the copy of that run', () => {
    const hol = row('`GET /users/{id}` while');
    expect(figures(section, /answers in ([\d.]+) ms at p99 on SQLite and ([\d.]+) ms on PostgreSQL/)).toEqual([p99(hol[1]), p99(hol[3])]);
    const rss = row('`serve` peak RSS');
    expect(figures(section, /peaks at (\d+) MB \(SQLite\) and (\d+) MB \(PostgreSQL\)/)).toEqual([number(rss[1]), number(rss[3])]);
    const seed = number(row('`admin seed').find((c, i) => i > 0 && c !== '')!);
    const copy = number(row('`admin copy`').find((c, i) => i > 0 && c !== '')!);
    expect(figures(section, /seeding the million rows takes (\d+) s and copying them into PostgreSQL (\d+) s/)).toEqual([Math.round(seed), Math.round(copy)]);
  });
});
