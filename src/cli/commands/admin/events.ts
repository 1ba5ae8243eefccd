/** `confctl admin events …`: registration only; the actions load when one runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import type { EventPatchFlags, EventsCreateOptions } from './events-run.js';
import { DATA, DATABASE, TENANT, commonOptions, type OwnFlags } from './flags.js';

const run = () => import('./events-run.js');

export function register(admin: Command, ctx: CliContext): void {
  const events = admin
    .command('events')
    .description('Change calendar events (of a data directory or --database); each change sends its webhook events (events.created, …)')
    .addHelpText('after', examples('confctl admin events create --calendar 1 --title Sync --start 2026-12-01T09:00:00Z --end 2026-12-01T09:30:00Z'));
  events
    .command('create')
    .description('Create an event in a calendar (sends events.created)')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .requiredOption('--calendar <id>', 'the calendar to put it in')
    .requiredOption('--title <text>', 'its title')
    .requiredOption('--start <time>', 'ISO 8601 date-time it starts')
    .requiredOption('--end <time>', 'ISO 8601 date-time it ends, after the start')
    .option('--body <text>', 'its description')
    .option('--location <text>', 'where it takes place')
    .addHelpText('after', examples('confctl admin events create --calendar 1 --title Sync --start 2026-12-01T09:00:00Z --end 2026-12-01T09:30:00Z -o json'))
    .action(async (flags: OwnFlags<EventsCreateOptions>, cmd: Command) => (await run()).eventsCreate({ ...flags, ...commonOptions(cmd) }, ctx));
  events
    .command('update <id>')
    .description('Change an event (events.updated; a new --start or --end also events.rescheduled)')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .option('--title <text>', 'new title')
    .option('--start <time>', 'new start')
    .option('--end <time>', 'new end')
    .option('--body <text>', 'new description')
    .option('--location <text>', 'new location')
    .addHelpText('after', examples('confctl admin events update 7 --title "Weekly sync" --location "Room 2"'))
    .action(async (id: string, flags: EventPatchFlags, cmd: Command) => (await run()).eventsUpdate({ id, ...flags, ...commonOptions(cmd) }, ctx));
  events
    .command('reschedule <id>')
    .description('Move an event to a new start and/or end (events.rescheduled)')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .option('--start <time>', 'new start')
    .option('--end <time>', 'new end')
    .addHelpText('after', examples('confctl admin events reschedule 7 --start 2026-12-02T09:00:00Z --end 2026-12-02T09:30:00Z'))
    .action(async (id: string, flags: EventPatchFlags, cmd: Command) => (await run()).eventsReschedule({ id, ...flags, ...commonOptions(cmd) }, ctx));
  events
    .command('delete <id>')
    .description('Delete an event (events.deleted); an event backing a conference is refused')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin events delete 7'))
    .action(async (id: string, flags: { tenant?: string }, cmd: Command) => (await run()).eventsDelete({ id, tenant: flags.tenant, ...commonOptions(cmd) }, ctx));
}
