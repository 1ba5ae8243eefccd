/** `confctl admin conferences start|end`: registration only; the actions load when one runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { DATA, DATABASE, TENANT, commonOptions } from './flags.js';

export function register(admin: Command, ctx: CliContext): void {
  const conferences = admin.command('conferences').description("Drive a conference's life (the provider's side)").addHelpText('after', examples('confctl admin conferences start 3'));
  for (const [name, summary] of [
    ['start', 'Start a conference: sets started_at and begins a recording (status Recording)'],
    ['end', 'End a started conference: sets ended_at; its running recordings become Processing'],
  ] as const) {
    conferences
      .command(`${name} <id>`)
      .description(summary)
      .option(...DATA)
      .option(...DATABASE)
      .option(...TENANT)
      .addHelpText('after', examples(`confctl admin conferences ${name} 3`))
      .action(async (id: string, flags: { tenant?: string }, cmd: Command) => {
        const run = await import('./conferences-run.js');
        await (name === 'start' ? run.conferenceStart : run.conferenceEnd)({ id, tenant: flags.tenant, ...commonOptions(cmd) }, ctx);
      });
  }
}
