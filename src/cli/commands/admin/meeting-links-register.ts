/** `confctl admin meeting-links …`: registration only; the actions load when one runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';

type Actions = typeof import('./meeting-links.js');
const lazy =
  <A extends string[]>(ctx: CliContext, pick: (m: Actions) => (ctx: CliContext, cmd: Command, ...args: A) => Promise<void>) =>
  async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    await pick(await import('./meeting-links.js'))(ctx, cmd, ...(args.slice(0, -2) as A));
  };

const DATA = ['--data <dir>', 'data directory (default: CONFCTL_DATA, else ~/.local/share/confctl)'] as const;
/** The same rule as `admin tenants|keys` (admin-local.ts `databaseUrl`). */
const DATABASE = ['--database <url>', 'work on this PostgreSQL database instead of a data directory (default: CONFCTL_DATABASE_URL, unless --data is given)'] as const;
const TENANT = ['--tenant <domain>', 'tenant by primary or alias domain (default: the first tenant)'] as const;

export function registerMeetingLinks(admin: Command, ctx: CliContext): void {
  const links = admin
    .command('meeting-links')
    .description("Booking pages of a calendar; booking through one sends meeting_links.scheduled")
    .addHelpText('after', examples('confctl admin meeting-links create --calendar 1 --name Intro'));
  links
    .command('create')
    .description('Create a meeting link for a calendar')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .requiredOption('--calendar <id>', 'the calendar it books into')
    .requiredOption('--name <text>', 'its name')
    .option('--duration <minutes>', 'length of a booked meeting', '30')
    .addHelpText('after', examples('confctl admin meeting-links create --calendar 1 --name "Intro call" --duration 15 -o json'))
    .action(lazy(ctx, (m) => m.meetingLinksCreate));
  links
    .command('list')
    .description("List a tenant's meeting links")
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin meeting-links list'))
    .action(lazy(ctx, (m) => m.meetingLinksList));
  links
    .command('schedule <id>')
    .description('Book a meeting through a link (events.created and meeting_links.scheduled)')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .requiredOption('--name <text>', "the booker's name")
    .requiredOption('--email <address>', "the booker's e-mail (matched to a customer, or a new one is made)")
    .option('--contact-number <phone>', "the booker's phone number")
    .requiredOption('--start <time>', 'ISO 8601 date-time the meeting starts')
    .addHelpText('after', examples('confctl admin meeting-links schedule 1 --name "Grace Hopper" --email grace@example.com --start 2026-12-01T15:00:00Z'))
    .action(lazy(ctx, (m) => m.meetingLinksSchedule));
}
