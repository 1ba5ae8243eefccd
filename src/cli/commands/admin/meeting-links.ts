/** `confctl admin meeting-links …`: registration only; the actions load when one runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { DATA, DATABASE, TENANT, commonOptions, type OwnFlags } from './flags.js';
import type { MeetingLinksCreateOptions, MeetingLinksListOptions, MeetingLinksScheduleOptions } from './meeting-links-run.js';

const run = () => import('./meeting-links-run.js');

export function register(admin: Command, ctx: CliContext): void {
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
    .action(async (flags: OwnFlags<MeetingLinksCreateOptions>, cmd: Command) => (await run()).meetingLinksCreate({ ...flags, ...commonOptions(cmd) }, ctx));
  links
    .command('list')
    .description("List a tenant's meeting links")
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin meeting-links list'))
    .action(async (flags: OwnFlags<MeetingLinksListOptions>, cmd: Command) => (await run()).meetingLinksList({ ...flags, ...commonOptions(cmd) }, ctx));
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
    .action(async (id: string, flags: Omit<MeetingLinksScheduleOptions, 'id'>, cmd: Command) => (await run()).meetingLinksSchedule({ id, ...flags, ...commonOptions(cmd) }, ctx));
}
