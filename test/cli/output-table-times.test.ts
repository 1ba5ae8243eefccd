import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderTable } from '../../src/cli/output/table.js';
import { cell, tableCell } from '../../src/cli/output/values.js';

describe('times in tables', () => {
  let tz: string | undefined;
  beforeEach(() => {
    tz = process.env.TZ;
    process.env.TZ = 'America/New_York';
  });
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it('show ISO date-times short, in the local time zone', () => {
    expect(tableCell('2026-01-31T09:30:00.000Z')).toBe('2026-01-31 04:30');
    expect(tableCell('2026-07-01T00:15:00Z')).toBe('2026-06-30 20:15');
  });

  it('leave everything else as the other formats print it', () => {
    expect(tableCell('2026-01-31')).toBe('2026-01-31');
    expect(tableCell('not 2026-01-31T09:30:00.000Z')).toBe('not 2026-01-31T09:30:00.000Z');
    expect(tableCell(null)).toBe('');
    expect(tableCell({ a: 1 })).toBe('{"a":1}');
    expect(cell('2026-01-31T09:30:00.000Z')).toBe('2026-01-31T09:30:00.000Z');
  });

  it('appear short in a rendered table', async () => {
    const text = await renderTable([{ id: 1, created_at: '2026-01-31T09:30:00.000Z' }], ['id', 'created_at'], { width: 80, color: false });
    expect(text).toContain('2026-01-31 04:30');
    expect(text).not.toContain('T09:30');
  });
});

describe('table width', () => {
  const rows = [{ id: 1, email: `${'x'.repeat(120)}@example.com` }];

  it('fits a terminal, truncating with …', async () => {
    const text = await renderTable(rows, ['id', 'email'], { width: 60, color: false, stdoutIsTTY: true });
    expect(Math.max(...text.trimEnd().split('\n').map((l) => l.length))).toBeLessThanOrEqual(60);
    expect(text).toContain('…');
  });

  it('never truncates in a pipe', async () => {
    const text = await renderTable(rows, ['id', 'email'], { width: 60, color: false, stdoutIsTTY: false });
    expect(text).toContain(rows[0].email);
    expect(text).not.toContain('…');
  });
});
