/** `confctl admin snapshot …`: registration and flags only; the actions load when one runs (snapshot-run.ts). */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import type { SnapshotOptions } from './snapshot-run.js';
import { type AdminCommon, commonOptions } from './flags.js';

const DATA = ['--data <dir>', 'data directory (default: CONFCTL_DATA, else ~/.local/share/confctl)'] as const;
const DATABASE = ['--database <url>', 'work on this PostgreSQL database instead of a data directory (default: CONFCTL_DATABASE_URL, unless --data is given)'] as const;
const MEDIA = ['--media <dir>', "recording files' directory (default: CONFCTL_MEDIA_DIR, else the data directory's media/)"] as const;

const WHAT = `
A snapshot is the whole instance, every tenant: users, customers, departments, roles, tenants and
their domains, access keys, accounts, calendars and events, conferences with attendees and
recordings, meeting links, webhook destinations and the webhook outbox (deliveries and their
attempts), the invitations outbox, and the recording files (their bytes). Not in a snapshot:
instance.json (the signing secret; on PostgreSQL the shared settings), client profiles, rate-limit
windows, and the snapshots themselves.

On SQLite a snapshot is a file in the data directory's snapshots/; on PostgreSQL a schema
confctl_snapshot_NAME in the database, so every instance sharing it sees it and its restore.

restore works while serve runs: serve answers from the restored state from its next request on;
a request in flight finishes on the old state, or answers 503 (Service busy, try again.) if it
waited too long for the restore's lock. Recording files are put in place right after the rows.
A snapshot saved by an older confctl is upgraded on SQLite (refused on PostgreSQL: save it again);
one saved by a newer confctl is refused. Names: 1 to 40 letters, digits, '.', '_' or '-'.

Not a backup: 'admin backup' makes a cold copy of a data directory for safekeeping, which
'admin restore' puts into a new or empty directory. A snapshot lives beside the instance and is
put back into it in place, in well under a second, for resetting state between tests. The same is
offered over HTTP by 'serve --test-controls' (POST /_confctl/snapshots/NAME and
POST /_confctl/snapshots/NAME/restore).
`;

/** `Omit` on each member of a union. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Registers `admin snapshot save|restore|list|delete`. */
export function registerSnapshots(admin: Command, ctx: CliContext): void {
  const act = (options: (name: string | undefined, flags: { force?: boolean }) => DistributiveOmit<SnapshotOptions, keyof AdminCommon>) => async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const name = typeof args[0] === 'string' ? args[0] : undefined;
    await (await import('./snapshot-run.js')).run({ ...options(name, cmd.opts<{ force?: boolean }>()), ...commonOptions(cmd) }, ctx);
  };
  const snapshot = admin
    .command('snapshot')
    .description('Save the whole instance under a name and put it back in place, also while serve runs (for tests)')
    .addHelpText('after', `${WHAT}${examples('confctl admin snapshot save clean', 'confctl admin snapshot restore clean', 'confctl admin snapshot list -o json')}`);
  snapshot
    .command('save <name>')
    .description('Save every tenant, the outboxes and the recording files as snapshot NAME')
    .option(...DATA)
    .option(...DATABASE)
    .option(...MEDIA)
    .option('--force', 'replace a snapshot of that name')
    .addHelpText('after', examples('confctl admin snapshot save clean --data ./data', 'confctl admin snapshot save clean --force'))
    .action(act((name, flags) => ({ verb: 'save', name: name!, force: Boolean(flags.force) })));
  snapshot
    .command('restore <name>')
    .description('Put snapshot NAME back in place of the whole instance (serve may keep running)')
    .option(...DATA)
    .option(...DATABASE)
    .option(...MEDIA)
    .addHelpText('after', examples('confctl admin snapshot restore clean --data ./data'))
    .action(act((name) => ({ verb: 'restore', name: name! })));
  snapshot
    .command('list')
    .description('List the snapshots (name, when saved, schema version, recording files)')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText('after', examples('confctl admin snapshot list -o json'))
    .action(act(() => ({ verb: 'list' })));
  snapshot
    .command('delete <name>')
    .description('Delete snapshot NAME')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText('after', examples('confctl admin snapshot delete clean'))
    .action(act((name) => ({ verb: 'delete', name: name! })));
}
