import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/** Bulk creation through the built bin against a real `serve`: customers from CSV, attendees past the maximum. */
describe.each(BACKENDS)('e2e: bulk --from-file (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  const csv = join(box.root, 'customers.csv');
  const errors = join(box.root, 'failed.ndjson');

  beforeAll(async () => {
    await box.json(['admin', 'init']);
    await box.serve(['--demo', '--rate-limit', 'off']);
    writeFileSync(
      csv,
      [
        'first_name,last_name,email,contact_number,address.city,address.country',
        'Ann,One,ann@bulk.test,+441234567890,London,United Kingdom',
        '"Bob, Jr",Two,bob@bulk.test,,Paris,France',
        'Cid,Three,not-an-email,,,',
        'Dee,Four,dee@bulk.test,,"Multi',
        'Line City",',
        'Eve,Five,eve@bulk.test,,,',
        'Fay,,fay@bulk.test,,,',
        'Gus,Seven,gus@bulk.test,,,',
        'Hal,Eight,hal@bulk.test,,,',
        'Ivy,Nine,ivy@bulk.test,12,,',
        'Jon,Ten,jon@bulk.test,,Rome,Italy',
      ].join('\r\n'),
    );
  });
  afterAll(() => box.dispose());

  it('creates the 7 valid customers of 10, reports the 3 invalid with their lines (refused before sending), exits 2', async () => {
    const r = await box.run(['customers', 'create', '--from-file', csv, '-o', 'ndjson']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('created 7, failed 3 of 10');
    expect(r.stderr).toContain('line 4: failed: The email field must be a valid email address.\n  email: The email field must be a valid email address.\n');
    expect(r.stderr).toContain('line 8: failed: The last_name field is required.');
    expect(r.stderr).toContain('line 11: failed: The contact_number field format is invalid.');
    expect(r.stderr.match(/^line \d+:/gm)).toEqual(['line 4:', 'line 8:', 'line 11:']);
    const created = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(created.map((c) => c.first_name)).toEqual(['Ann', 'Bob, Jr', 'Dee', 'Eve', 'Gus', 'Hal', 'Jon']);
    expect(created[3 - 1].address).toMatchObject({ city: 'Multi\r\nLine City', country: null });

    const stored = await box.json<any[]>(['customers', 'list', '--filter', 'email~@bulk.test', '--page-size', '100']);
    expect(stored.map((c) => c.email).sort()).toEqual(['ann', 'bob', 'dee', 'eve', 'gus', 'hal', 'jon'].map((n) => `${n}@bulk.test`));
    expect(stored.find((c) => c.first_name === 'Ann')).toMatchObject({ contact_number: '+441234567890', address: { city: 'London', country: 'United Kingdom' } });
  });

  it('run again with --errors: every record is a duplicate now (400, exit 6) except the 3 invalid ones, all reported in the file', async () => {
    const r = await box.run(['customers', 'create', '--from-file', csv, '--errors', errors, '--concurrency', '2']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('created 0, failed 10 of 10');
    const failed = readFileSync(errors, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(failed.map((x) => x.line)).toEqual([2, 3, 4, 5, 7, 8, 9, 10, 11, 12]);
    expect(failed[0]).toMatchObject({ status: 400, message: 'The email has already been taken.', errors: { email: ['The email has already been taken.'] }, record: { first_name: 'Ann', email: 'ann@bulk.test' } });
  });

  it('--dry-run prints 10 curl lines and stores nothing', async () => {
    const fresh = join(box.root, 'fresh.ndjson');
    writeFileSync(fresh, Array.from({ length: 10 }, (_, i) => JSON.stringify({ first_name: 'D', last_name: 'R', email: `dry${i}@bulk.test` })).join('\n'));
    const r = await box.run(['--dry-run', 'customers', 'create', '--from-file', fresh]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').filter((l) => l.startsWith('curl -X POST ') && l.includes("X-Access-Key-Secret: ****'"))).toHaveLength(10);
    expect(await box.json<any[]>(['customers', 'list', '--filter', 'email~dry'])).toEqual([]);
  });

  it('attendees past the maximum are reported as 409 failures with their lines (exit 5)', async () => {
    const [account] = await box.json<any[]>(['users', 'accounts', '1']);
    const conference = await box.json(['conferences', 'create', '--account', String(account.id), '--public-id', 'bulk-e2e', '--title', 'Bulk', '--public']);
    const file = join(box.root, 'attendees.csv');
    writeFileSync(file, `name,email\n${Array.from({ length: 7 }, (_, i) => `Guest ${i + 1},guest${i + 1}@bulk.test`).join('\n')}\n`);
    const r = await box.run(['conferences', 'attendees', 'add', String(conference.id), '--from-file', file, '-o', 'ndjson']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('line 7: failed (409): Cannot exceed maximum attendee count.\nline 8: failed (409): Cannot exceed maximum attendee count.\n');
    expect(r.stderr).toContain('added 5, failed 2 of 7');
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).email)).toEqual([1, 2, 3, 4, 5].map((i) => `guest${i}@bulk.test`));
    expect(await box.json<any[]>(['conferences', 'attendees', 'list', String(conference.id)])).toHaveLength(6);
  });
});
