import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { conferenceContract } from './contract/conferences.js';
import type { StoreFactory } from './contract/fixtures.js';
import { listContract } from './contract/lists.js';
import { repoContract } from './contract/repos.js';
import { seedContract } from './contract/seeds.js';

/**
 * The store contract suite: the same tests against every Store implementation. A future
 * PostgreSQL store adds one factory here and must pass unchanged.
 */
function storeContract(factory: StoreFactory) {
  listContract(factory);
  repoContract(factory);
  conferenceContract(factory);
  seedContract(factory);
}

const dir = mkdtempSync(path.join(tmpdir(), 'confctl-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const factories: StoreFactory[] = [
  { name: 'sqlite :memory:', create: () => openStore(':memory:') },
  {
    name: 'sqlite file (WAL)',
    create: () => openStore(path.join(dir, `store-${++n}.db`)),
    reopen: (store: Store) => openStore(store.location),
  },
];

for (const factory of factories) storeContract(factory);
