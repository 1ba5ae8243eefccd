// Measures how long the slowest list classes hold the event loop in a tenant of N rows (users and
// customers each), cold (the total not cached, the statements prepared): the figures behind
// MAIN_THREAD_COUNT_ROWS in src/store/sqlite/list-query.ts. Each case runs on a freshly opened
// store, three times; the least is reported (the machine is shared).
// Usage: npx tsx test/store/tools/main-thread-lists.ts [N...]

import { rmSync } from 'node:fs';
import type { ListQuery } from '../../../src/contract/index.js';
import { seedBulk } from '../../../src/admin/seed/index.js';
import { openStore } from '../../../src/store/sqlite/index.js';
import { atOnce } from '../../at-once.js';

const sizes = process.argv.slice(2).map(Number);
const DEPARTMENTS = ['Engineering', 'Sales', 'Support', 'Finance', 'Legal', 'Marketing', 'Research', 'Operations'];
const BASE = Date.UTC(2024, 0, 1);

type Filter = ListQuery['filter'];
const q = (filter: Filter, order_by = 'id', order_direction: 'asc' | 'desc' = 'asc', page_number = 1, with_trashed = false): ListQuery =>
  ({ page_size: 100, page_number, with_trashed, order_by, order_direction, filter });
const F = (attribute: string, operator: string, value: unknown) => ({ attribute, operator, value }) as unknown as Filter;

for (const n of sizes.length ? sizes : [5_000, 10_000, 20_000]) {
  const file = `/tmp/main-thread-lists-${n}.db`;
  rmSync(file, { force: true });
  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
  const seeded = openStore(file);
  const tenant = seeded.tenants.create('big.example').id;
  for (const name of DEPARTMENTS) seeded.departments.create(tenant, name);
  atOnce(seedBulk(seeded, tenant, { users: n, customers: n }));
  seeded.optimize();
  seeded.close();

  const middle = new Date(BASE + (n / 2) * 60_000).toISOString();
  // The last full page of the live rows (about 95 % of them).
  const last = Math.floor((n * 0.9) / 100);
  const users: [string, ListQuery][] = [
    ['status Equal 1 (80 %)', q(F('status', 'Equal', 1))],
    ['status Equal 1, page 20', q(F('status', 'Equal', 1), 'id', 'asc', 20)],
    ['role Equal', q(F('role', 'Equal', 'Member'))],
    ['email Contains 1 char', q(F('email', 'Contains', 'q'))],
    ['email Contains 2 chars, no match', q(F('email', 'Contains', 'zq'))],
    ['first_name Contains 2 chars', q(F('first_name', 'Contains', 'an'))],
    ['department Contains', q(F('department', 'Contains', 'ing'))],
    ['status Contains', q(F('status', 'Contains', '0'))],
    ['created_at > middle', q(F('created_at', 'GreaterThan', middle))],
    ['created_at < middle, by last_name', q(F('created_at', 'LessThan', middle), 'last_name')],
    ['by last_name, last page', q(null, 'last_name', 'asc', last)],
    ['by department desc, last page', q(null, 'department', 'desc', last)],
    ['with trashed by created_at desc, last page', q(null, 'created_at', 'desc', last, true)],
    ['first_name Contains 1 char, by department, last page', q(F('first_name', 'Contains', 'a'), 'department', 'desc', Math.floor(last / 2))],
  ];
  const customers: [string, ListQuery][] = [
    ['last_name Equal', q(F('last_name', 'Equal', 'Smith'))],
    ['address Contains 1 char', q(F('address', 'Contains', 'q'))],
    ['city_country Contains 2 chars', q(F('city_country', 'Contains', 'an'))],
    ['by address, last page', q(null, 'address', 'asc', last)],
    ['email Contains 2 chars, by last_name desc', q(F('email', 'Contains', 'zq'), 'last_name', 'desc')],
  ];
  const time = (run: (s: ReturnType<typeof openStore>) => unknown): number => {
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const s = openStore(file);
      const started = performance.now();
      run(s);
      best = Math.min(best, performance.now() - started);
      s.close();
    }
    return best;
  };
  console.log(`\n${n.toLocaleString('en')} users and customers in one tenant: ms (least of 3, cold)`);
  for (const [name, query] of users) console.log(`users ${name}: ${time((s) => s.users.listJson(tenant, query)).toFixed(1)}`);
  for (const [name, query] of customers) console.log(`customers ${name}: ${time((s) => s.customers.list(tenant, query)).toFixed(1)}`);
  rmSync(file, { force: true });
  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
}
