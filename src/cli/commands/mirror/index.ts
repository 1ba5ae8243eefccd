/** `confctl mirror`: registration only; the action loads when it runs (mirror-run.ts). */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('mirror')
    .description("Build a local instance from a tenant read through the API (a read-only key will do), optionally anonymized")
    .requiredOption('--from-profile <name>', 'the profile of the tenant to read (its key needs only the read permissions)')
    .option('--to-data <dir>', 'the new data directory (must not hold an instance, unless --resume)')
    .option('--to-database <url>', 'a PostgreSQL database instead (built in a staging data directory, then copied as admin copy does)')
    .option('--media <dir>', "with --to-database: where the recording files go (default as admin copy's --media-to)")
    .option('--anonymize', 'replace names, e-mails, phone numbers and street addresses with consistent fakes')
    .option('--seed <text>', 'with --anonymize: the same input and seed give the same fakes (default: a random seed, printed on stderr)')
    .option('--since <duration>', 'only users, customers and conferences created this recently, e.g. 90d (a number with ms, s, m, h or d)')
    .option('--limit-per-kind <n>', 'at most N users, N customers and N conferences (plus what they refer to)')
    .option('--resume', 'continue an interrupted mirror into the same target, with the same options')
    .option('--profile-name <name>', "save the new instance's key as this client profile (default: no profile is saved)")
    .addHelpText(
      'after',
      `
Mirrored: users (departments, roles, connected and conference accounts), customers, conferences
with attendees and recordings, with their ids and timestamps; deleted rows too. Recording files
become generated audio of the same length. Not mirrored: calendar events (the API cannot list
them), so backer_event_id becomes null. Reads are paced by the RateLimit-* headers.
${examples(
  'confctl mirror --from-profile prod --to-data ./staging --anonymize --seed 42 --since 90d',
  'confctl mirror --from-profile prod --to-data ./staging --limit-per-kind 500 --profile-name staging',
  'confctl mirror --from-profile prod --to-data ./staging --resume   # after an interruption',
)}`,
    )
    .action(async (flags: Record<string, unknown>, cmd: Command) => (await import('./run.js')).mirror(ctx, cmd, flags));
}
