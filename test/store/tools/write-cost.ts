// The write cost of the counters' stamp bounds (SQLite migration 19, PostgreSQL migration 10):
// customers inserted and updated through the store's repositories on two databases of this build,
// one with its counter triggers put back as they were before the bounds (migration 16's on SQLite,
// migration 7's function on PostgreSQL), in alternating rounds, in one process. Prints the median
// µs per insert and per update of each, wall-clock and this process's CPU (SQLite's work, not
// PostgreSQL's), and their ratio.
// Usage: node --import tsx test/store/tools/write-cost.ts [ROUNDS] [ROWS_PER_ROUND]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bucketedListCountsDdl } from '../../../src/store/postgres/list-counts.js';
import { openPostgresStore } from '../../../src/store/postgres/index.js';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { listCountsDdl } from '../../../src/store/sqlite/list-counts.js';
import { openStore } from '../../../src/store/sqlite/index.js';
import type { DataStore } from '../../../src/store/port.js';
import { createDatabase } from '../../../bench/lib/postgres.js';
import { startPostgres } from '../../pg/postgres-server.js';

const [rounds, perRound] = [Number(process.argv[2] ?? 9), Number(process.argv[3] ?? 1000)];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs `rounds` rounds of `perRound` inserts then as many updates on each store in turn (the order alternating). */
async function compare(label: string, stores: Record<'bounds' | 'before', DataStore>): Promise<void> {
  const tenants = { bounds: (await stores.bounds.tenants.create('w.example')).id, before: (await stores.before.tenants.create('w.example')).id };
  const times: Record<string, number[]> = {};
  let n = 0;
  for (let r = 0; r < rounds; r++) {
    const order: ('bounds' | 'before')[] = r % 2 ? ['before', 'bounds'] : ['bounds', 'before'];
    for (const name of order) {
      const store = stores[name];
      const ids: number[] = [];
      let [t0, c0] = [process.hrtime.bigint(), process.cpuUsage()];
      const note = (what: string) => {
        const cpu = process.cpuUsage(c0);
        (times[`${name} ${what}`] ??= []).push(Number(process.hrtime.bigint() - t0) / 1e3 / perRound);
        (times[`${name} ${what} cpu`] ??= []).push((cpu.user + cpu.system) / perRound);
        [t0, c0] = [process.hrtime.bigint(), process.cpuUsage()];
      };
      for (let i = 0; i < perRound; i++) ids.push((await store.customers.insert(tenants[name], { first_name: 'W', last_name: 'C', email: `w${++n}@w.example` })).id);
      note('insert');
      for (const id of ids) await store.customers.update(tenants[name], id, { last_name: 'Updated' });
      note('update');
    }
  }
  for (const what of ['insert', 'insert cpu', 'update', 'update cpu']) {
    const [b, a] = [median(times[`before ${what}`]), median(times[`bounds ${what}`])];
    console.log(`${label} ${what}: before ${b.toFixed(1)} µs, with bounds ${a.toFixed(1)} µs (x${(a / b).toFixed(3)}; median of ${rounds} rounds of ${perRound})`);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'confctl-write-cost-'));
try {
  // Migration 16's counter triggers of the customers, in place of migration 19's.
  const old = listCountsDdl('bucket').match(/CREATE TRIGGER customers_counts_(insert|update)[\s\S]*?\nEND;/g)!;
  const reverted = openDatabase(join(dir, 'before.db'));
  reverted.exec(`DROP TRIGGER customers_counts_insert; DROP TRIGGER customers_counts_update; DROP TRIGGER customers_bounds_update; ${old.join('\n')}`);
  reverted.close();
  const sqlite = { bounds: openStore(join(dir, 'bounds.db')), before: openStore(join(dir, 'before.db')) };
  await compare('SQLite', sqlite);
  await Promise.all([sqlite.bounds.close(), sqlite.before.close()]);

  const server = await startPostgres();
  try {
    const pg = {
      bounds: await openPostgresStore(await createDatabase(server.url, 'bounds')),
      before: await openPostgresStore(await createDatabase(server.url, 'before')),
    };
    // Migration 7's counter function, in place of migration 10's.
    await pg.before.pool.query(bucketedListCountsDdl().match(/CREATE OR REPLACE FUNCTION confctl_count_rows\(\)[\s\S]*?\n\$\$;/)![0]);
    await compare('PostgreSQL', pg);
    await Promise.all([pg.bounds.close(), pg.before.close()]);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
