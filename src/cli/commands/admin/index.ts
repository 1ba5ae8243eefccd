/**
 * `confctl admin …`: administration of a data directory, or with `--database` a PostgreSQL
 * database; no server needed. Each noun registers its own commands (NOUN.ts), whose actions load
 * with their run module (NOUN-run.ts) only when one runs.
 */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import * as backup from './backup.js';
import * as conferences from './conferences.js';
import * as copy from './copy.js';
import * as events from './events.js';
import * as importing from './import.js';
import * as init from './init.js';
import * as keys from './keys.js';
import * as lookup from './lookup.js';
import * as meetingLinks from './meeting-links.js';
import * as recordings from './recordings.js';
import * as seed from './seed.js';
import * as tenants from './tenants.js';
import * as webhooks from './webhooks.js';
import { registerClock } from './clock.js';
import { registerFaults } from './faults.js';
import { registerSnapshots } from './snapshot.js';

/** The nouns below `admin`, in the order help lists them: add a noun's module here. */
const NOUNS: ReadonlyArray<{ register(admin: Command, ctx: CliContext): void }> = [
  init,
  tenants,
  keys,
  lookup,
  seed,
  conferences,
  recordings,
  importing,
  backup,
  copy,
  events,
  meetingLinks,
  webhooks,
  { register: registerSnapshots },
  { register: registerClock },
  { register: (admin, ctx) => registerFaults(admin, ctx) },
];

export function register(program: Command, ctx: CliContext): void {
  const admin = program
    .command('admin')
    .description("Administer a local data directory, or a PostgreSQL database with --database (tenants, keys, demo data, the provider's side)")
    .addHelpText('after', examples('confctl admin init --data ./data -o json', 'confctl admin keys create --tenant localhost --name ci --permissions "users.read.*,customers.*"'));
  for (const noun of NOUNS) noun.register(admin, ctx);
}
