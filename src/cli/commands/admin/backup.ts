/** `confctl admin backup|restore`: registration only; the actions load when one runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { commonOptions, type OwnFlags } from './flags.js';
import type { BackupOptions, RestoreOptions } from './backup-run.js';

/** Taken only to refuse it: a PostgreSQL instance is backed up with pg_dump. */
const DATABASE = ['--database <url>', 'refused (exit 2), as is CONFCTL_DATABASE_URL without --data: back PostgreSQL up with pg_dump, restore with pg_restore'] as const;

const NOT_A_SNAPSHOT = `
A backup is a cold copy for safekeeping, restored into a new or empty data directory; the
snapshots of 'confctl admin snapshot' (the data directory's snapshots/) are not part of it. To
reset an instance in place between tests, also while serve runs, use 'confctl admin snapshot
save|restore' instead.
`;

export function register(admin: Command, ctx: CliContext): void {
  admin
    .command('backup')
    .description('Copy a data directory (a consistent database snapshot, media files, instance.json) into one new directory, also while serve runs')
    .option('--data <dir>', 'data directory to back up (default: CONFCTL_DATA, else ~/.local/share/confctl)')
    .option('--media <dir>', "recording files to back up (default: CONFCTL_MEDIA_DIR, else the data directory's media/)")
    .requiredOption('--to <path>', 'the backup directory to create')
    .option(...DATABASE)
    .option('--force', 'replace --to if it exists')
    .addHelpText('after', `${NOT_A_SNAPSHOT}${examples('confctl admin backup --data ./data --to ./backup-2026-01-31', 'confctl --dry-run admin backup --to ./backup   # print the plan, write nothing')}`)
    .action(async (flags: OwnFlags<BackupOptions>, cmd: Command) => (await import('./backup-run.js')).backup({ ...flags, ...commonOptions(cmd) }, ctx));
  admin
    .command('restore')
    .description('Put a backup back into a new or empty data directory')
    .requiredOption('--from <path>', 'a directory made by admin backup')
    .option('--data <dir>', 'data directory to restore into, new or empty (default: CONFCTL_DATA, else ~/.local/share/confctl)')
    .option('--media <dir>', "where the recording files go, new or empty (default: CONFCTL_MEDIA_DIR, else the data directory's media/)")
    .option(...DATABASE)
    .addHelpText('after', `${NOT_A_SNAPSHOT}${examples('confctl admin restore --from ./backup-2026-01-31 --data ./restored')}`)
    .action(async (flags: OwnFlags<RestoreOptions>, cmd: Command) => (await import('./backup-run.js')).restore({ ...flags, ...commonOptions(cmd) }, ctx));
}
