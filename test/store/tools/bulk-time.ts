import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedBulk } from '../../../src/admin/seed/index.js';
import { openStore } from '../../../src/store/sqlite/index.js';
import { atOnce } from '../../at-once.js';
/** Times seedBulk for 100,000 users on a WAL file database: `npx tsx test/store/tools/bulk-time.ts`. */
const dir = mkdtempSync(path.join(tmpdir(), 'bulk-'));
const s = openStore(path.join(dir, 'bulk.db'));
const t = s.tenants.create('bulk.example').id;
const t0 = performance.now();
atOnce(seedBulk(s, t, { users: 100_000, customers: 10_000 }));
const t1 = performance.now();
s.optimize();
console.log(`seedBulk 100,000 users + 10,000 customers: ${(t1 - t0).toFixed(0)} ms; optimize ${(performance.now() - t1).toFixed(0)} ms`);
s.close();
rmSync(dir, { recursive: true, force: true });
