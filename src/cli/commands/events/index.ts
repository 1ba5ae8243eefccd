/** `confctl events get CALENDAR_ID EVENT_ID`. */
import type { Command } from 'commander';
import { operationMeta } from '../../../contract/operations-meta.js';
import { type CliContext, globalOptions } from '../../context.js';
import { idArg, type ItemOptions, runGet, withExample } from '../resource.js';
import { examples } from '../../help.js';

export interface EventsRunners {
  get(opts: ItemOptions): Promise<void>;
}

/** Registers `events`; `runF` replaces the runners in parse-only tests. */
export function register(program: Command, ctx: CliContext, runF: Partial<EventsRunners> = {}): void {
  const run: EventsRunners = { get: (o) => runGet('getCalendarEvent', o, ctx), ...runF };
  const events = program.command('events').description('Show calendar events').addHelpText('after', examples(operationMeta('getCalendarEvent').cli.example));
  const get = events
    .command('get')
    .description(`${operationMeta('getCalendarEvent').summary} (with the conference it backs, if any)`)
    .argument('<calendar_id>')
    .argument('<event_id>');
  withExample(get, 'getCalendarEvent').action((calendarId: string, eventId: string, _flags, cmd: Command) =>
    run.get({ params: { calendar_id: idArg(calendarId, 'calendar_id'), event_id: idArg(eventId, 'event_id') }, globals: globalOptions(cmd) }),
  );
}
