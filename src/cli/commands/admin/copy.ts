/** `confctl admin copy`: registration only; the action (and pg) loads when it runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { commonOptions, type OwnFlags } from './flags.js';
import type { CopyFlags } from './copy-run.js';

export function register(admin: Command, ctx: CliContext): void {
  admin
    .command('copy')
    .description('Move a local SQLite instance into PostgreSQL: every row (same ids), the signing secret and the recording files')
    .requiredOption('--from <dir>', 'the data directory to copy (its confctl.db and instance.json)')
    .option('--to <url>', 'the PostgreSQL database (default: CONFCTL_DATABASE_URL, which no process list shows)')
    .option('--media <dir>', "the instance's recording files (default: CONFCTL_MEDIA_DIR, else --from's media/)")
    .option('--media-to <dir>', "where the recording files go: the --media of serve --database (default: CONFCTL_MEDIA_DIR, else CONFCTL_DATA's media/, else ~/.local/share/confctl/media)")
    .option('--replace', "empty confctl's tables in the database first (else a database holding a tenant is refused)")
    .addHelpText(
      'after',
      `
All rows are copied in one PostgreSQL transaction: on any failure the database is left as it was.
The recording files go to --media-to, where serve --database (given the same environment and no
--data/--media) looks for them; nothing is copied when it is the instance's own media directory.
Backups of a PostgreSQL instance are pg_dump's (admin backup is for data directories).
${examples(
  'confctl admin copy --from ./data --to postgres://confctl@localhost/confctl --replace -o json',
  'CONFCTL_DATABASE_URL=postgres://confctl@db.internal/confctl confctl admin copy --from ./data --media-to /srv/confctl-media',
  'confctl --dry-run admin copy --from ./data --to postgres://confctl@localhost/confctl   # print the plan, write nothing',
)}`,
    )
    .action(async (flags: OwnFlags<CopyFlags>, cmd: Command) => (await import('./copy-run.js')).copy({ ...flags, ...commonOptions(cmd) }, ctx));
}
