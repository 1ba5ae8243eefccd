import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../pg/database.js';
import { type AdminFake, adminFake } from './admin-helpers.js';

const made: TestDatabase[] = [];
const fakes: AdminFake[] = [];
afterEach(() => fakes.splice(0).forEach((f) => f.dispose()));
afterAll(async () => Promise.all(made.map((d) => d.drop())));

describe('instances started together on an empty database', () => {
  it('one creates the tenant and prints its key; every other says where the key was printed', async () => {
    const db = await createTestDatabase();
    made.push(db);
    const [a, b, c] = [adminFake(), adminFake(), adminFake()];
    fakes.push(a, b, c);
    const runs = [a, b, c].map((f, i) => f.run(['serve', '--port', '0', '--log', 'off', '--database', db.url, ...(i === 0 ? ['--no-profile'] : [])]));
    await vi.waitFor(() => [a, b, c].forEach((f) => expect(f.stdout()).toContain('Listening on')), { timeout: 30_000 });
    process.emit('SIGTERM');
    expect(await Promise.all(runs)).toEqual([0, 0, 0]);
    const outs = [a, b, c].map((f) => f.stdout());
    expect(outs.filter((o) => o.includes('Access key (the secret is shown only now)'))).toHaveLength(1);
    const others = outs.filter((o) => !o.includes('Access key'));
    expect(others).toHaveLength(2);
    for (const o of others) expect(o).toContain('The tenant was created by another instance; its key was printed there.');
  }, 60_000);

  it('a later start on a database that has its tenant says nothing of the kind', async () => {
    const db = await createTestDatabase();
    made.push(db);
    for (const expectKey of [true, false]) {
      const f = adminFake();
      fakes.push(f);
      const run = f.run(['serve', '--port', '0', '--log', 'off', '--no-profile', '--database', db.url]);
      await vi.waitFor(() => expect(f.stdout()).toContain('Listening on'), { timeout: 30_000 });
      process.emit('SIGTERM');
      expect(await run).toBe(0);
      expect(f.stdout().includes('Access key')).toBe(expectKey);
      expect(f.stdout()).not.toContain('created by another instance');
    }
  }, 60_000);
});
