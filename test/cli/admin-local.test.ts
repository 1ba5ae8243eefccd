import { afterEach, describe, expect, it } from 'vitest';
import { type AdminFake, adminFake } from './admin-helpers.js';

let f: AdminFake;
afterEach(() => f.dispose());

describe('admin errors carry a hint line, as client errors do', () => {
  it('not found names the list command where there is one, else the instance flags; invalid names the help', async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'meeting-links', 'schedule', '999', '--name', 'X', '--email', 'x@example.com', '--start', '2026-12-01T15:00:00Z'])).toBe(4);
    expect(f.stderr()).toContain("hint: 'confctl admin meeting-links list' lists what there is");
    expect(await f.run(['admin', 'events', 'delete', '999'])).toBe(4);
    expect(f.stderr()).toContain('error: no event 999 in this tenant\nhint: check the ids and paths; --data, --database and --tenant choose');
    expect(await f.run(['admin', 'events', 'create', '--calendar', '1', '--title', 'x', '--start', 'tomorrow', '--end', '2026-12-01T09:30:00Z'])).toBe(6);
    expect(f.stderr()).toContain("hint: check the flags and values: 'confctl admin events create --help' shows what each takes");
  });
});
