/**
 * The bulk seed's row worker (see `startRowsWorker` in ./bulk.ts): draws the seed's users and
 * customers as `bulkUsers` and `bulkCustomers` do and converts them to the rows the store writes
 * (`prepareUser`, `prepareCustomer`), on this thread while the loader inserts on the main one.
 */
import { workerData } from 'node:worker_threads';
import { prepareCustomer } from '../../store/rows/customers.js';
import { prepareUser } from '../../store/rows/users.js';
import { type RowsWorkerData, bulkCustomers, bulkDraws, bulkUsers } from './bulk.js';
import { endRows, sendError, sendRows } from './row-channel.js';

const { tenantId, plan, counts, users, customers } = workerData as RowsWorkerData;
process.on('exit', () => [users, customers].forEach(endRows));
const names = new Map(plan.departments.map((id, i) => [id, plan.departmentNames[i]]));
const rnd = bulkDraws(tenantId);
let current = users;
try {
  sendRows(users, bulkUsers(rnd, plan, counts.users), (u) => prepareUser(u, u.department_id == null ? null : (names.get(u.department_id) ?? null)));
  current = customers;
  sendRows(customers, bulkCustomers(rnd, plan, counts.customers), prepareCustomer);
} catch (err) {
  sendError(current, err);
}
