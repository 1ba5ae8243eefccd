/**
 * A row worker for test/admin/seed/bulk.test.ts that fails part way: it posts the seed's first
 * 1,500 users as the real worker does, then either posts an error (`mode: 'error'`) or ends
 * without a word (`mode: 'exit'`).
 */
import { workerData } from 'node:worker_threads';
import { bulkDraws, bulkUsers, type RowsWorkerData } from '../../../src/admin/seed/bulk.js';
import { endRows, sendError, sendRows } from '../../../src/admin/seed/row-channel.js';
import { prepareUser } from '../../../src/store/rows/users.js';

const { tenantId, plan, users, customers, mode } = workerData as RowsWorkerData & { mode: 'error' | 'exit' };
process.on('exit', () => [users, customers].forEach(endRows));
sendRows(users, bulkUsers(bulkDraws(tenantId), plan, 1500), (u) => prepareUser(u, null));
if (mode === 'error') sendError(users, new Error('no more names'));
