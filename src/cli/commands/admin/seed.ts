/** `confctl admin seed`: registration only; the action loads when it runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { DATA, DATABASE, MEDIA, TENANT, commonOptions, type OwnFlags } from './flags.js';
import type { SeedOptions } from './seed-run.js';

export function register(admin: Command, ctx: CliContext): void {
  admin
    .command('seed')
    .description('Fill a tenant with the demo data set, or with N deterministic users and customers')
    .option(...DATA)
    .option(...DATABASE)
    .option(...MEDIA)
    .option(...TENANT)
    .option('--demo', 'the demo data set (departments, users, customers, conferences, recordings in every status)')
    .option('--users <n>', 'number of generated users')
    .option('--customers <n>', 'number of generated customers')
    .addHelpText('after', examples('confctl admin seed --demo', 'confctl admin seed --users 100000 --customers 100000'))
    .action(async (flags: OwnFlags<SeedOptions>, cmd: Command) => (await import('./seed-run.js')).seed({ ...flags, ...commonOptions(cmd) }, ctx));
}
