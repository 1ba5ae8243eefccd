import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importRecords, ImportError } from '../../src/admin/import.js';
import { setup } from './fixture.js';
import { atOnce } from '../at-once.js';

let f: ReturnType<typeof setup>;
beforeEach(() => {
  f = setup();
});
afterEach(() => f.store.close());

describe('admin import dates are ISO 8601 (decisions §1)', () => {
  it('rejects dates Date.parse would roll over or guess, and imports nothing', () => {
    const cal = f.store.calendars.insert(f.tenantId, { owner_type: 'User', owner_id: f.owner.id, name: 'Mine' });
    const rows = [
      { calendar_id: cal.id, title: 'T', start: '2026-02-30', end: '2026-03-05' },
      { calendar_id: cal.id, title: 'T', start: '2026-03-01', end: 'March 7, 2026' },
    ];
    let error: unknown;
    try {
      atOnce(importRecords(f.store, f.tenantId, 'events', JSON.stringify(rows), { fileName: 'events.json' }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).rows).toEqual([
      { line: 1, errors: { start: ['The start field must be a valid date.'] } },
      { line: 2, errors: { end: ['The end field must be a valid date.'] } },
    ]);
    expect(f.store.events.get(f.tenantId, cal.id, 1)).toBeUndefined();
  });

  it('stores an offset date-time as the UTC instant it names', () => {
    const cal = f.store.calendars.insert(f.tenantId, { owner_type: 'User', owner_id: f.owner.id, name: 'Mine' });
    atOnce(importRecords(f.store, f.tenantId, 'events', JSON.stringify([{ calendar_id: cal.id, title: 'T', start: '2026-03-01T10:00:00+01:00', end: '2026-03-01T10:30' }]), { fileName: 'e.json' }));
    expect(f.store.events.get(f.tenantId, cal.id, 1)).toMatchObject({ start: '2026-03-01T09:00:00.000Z', end: '2026-03-01T10:30:00.000Z' });
  });
});
