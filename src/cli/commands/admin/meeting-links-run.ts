/**
 * `confctl admin meeting-links create|list|schedule`: booking pages of a calendar, and booking
 * through them, in the data directory or, with `--database`, in PostgreSQL.
 */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import { eventTime } from '../../../admin/events.js';
import { createMeetingLink, scheduleMeeting } from '../../../admin/meeting-links.js';
import { plan, print, printList, wholeNumber } from './local.js';
import { withStore } from './store.js';

export type MeetingLinksCreateOptions = AdminCommon & { tenant?: string; calendar: string; name: string; duration?: string };
export type MeetingLinksListOptions = AdminCommon & { tenant?: string };
export type MeetingLinksScheduleOptions = AdminCommon & { id: string; tenant?: string; name: string; email: string; contactNumber?: string; start: string };

export async function meetingLinksCreate(options: MeetingLinksCreateOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const input = {
      calendar_id: wholeNumber('--calendar', options.calendar),
      name: options.name,
      duration_minutes: wholeNumber('--duration', options.duration ?? '30'),
    };
    const tenant = await tenantOf(options);
    if (options.globals.dryRun) return plan(ctx, [`would create meeting link '${input.name}' (${input.duration_minutes} min) for calendar ${input.calendar_id} of tenant ${tenant.primary_domain}`]);
    await print(ctx, options.globals, { ...(await createMeetingLink(store, tenant.id, input)) });
  });
}

export async function meetingLinksList(options: MeetingLinksListOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, false, async ({ store, tenantOf }) => {
    const rows = (await store.meetingLinks.list((await tenantOf(options)).id)).map((l) => ({ ...l }));
    await printList(ctx, options.globals, rows, ['id', 'calendar_id', 'name', 'duration_minutes', 'created_at']);
  });
}

export async function meetingLinksSchedule(options: MeetingLinksScheduleOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const linkId = wholeNumber('meeting link id', options.id);
    const booker = { name: options.name, email: options.email, contact_number: options.contactNumber ?? null };
    const start = eventTime('--start', options.start);
    const tenant = await tenantOf(options);
    if (options.globals.dryRun) return plan(ctx, [`would book ${booker.name} <${booker.email}> at ${start} through meeting link ${linkId} of tenant ${tenant.primary_domain}, sending events.created and meeting_links.scheduled`]);
    const r = await scheduleMeeting(store, tenant.id, linkId, booker, start);
    await print(ctx, options.globals, {
      meeting_link_id: r.link.id,
      event_id: r.event_id,
      calendar_id: r.link.calendar_id,
      customer_id: r.customer_id,
      customer_created: r.customer_created,
      webhook_events: ['events.created', 'meeting_links.scheduled'],
    });
  });
}
