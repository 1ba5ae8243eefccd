/** `confctl version`: prints the version, as `--version` and `-v` do. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { version } from '../../version.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('version')
    .description('Print the version of confctl')
    .addHelpText('after', examples('confctl version'))
    .action(() => void ctx.streams.stdout.write(`${version()}\n`));
}
