/**
 * `confctl admin meeting-links create|list|schedule`: booking pages of a calendar, and booking
 * through them, in the data directory or, with `--database`, in PostgreSQL.
 */
import type { Command } from 'commander';
import { eventTime } from '../../../admin/events.js';
import { createMeetingLink, scheduleMeeting } from '../../../admin/meeting-links.js';
import type { CliContext } from '../../context.js';
import { isDryRun, plan, print, printList, wholeNumber } from './local.js';
import { withStore } from './store.js';

export async function meetingLinksCreate(ctx: CliContext, cmd: Command): Promise<void> {
  await withStore(ctx, cmd, true, async ({ store, tenantOf }, opts) => {
    const input = {
      calendar_id: wholeNumber('--calendar', opts.calendar),
      name: String(opts.name),
      duration_minutes: wholeNumber('--duration', opts.duration ?? '30'),
    };
    const tenant = await tenantOf(opts);
    if (isDryRun(cmd)) return plan(ctx, [`would create meeting link '${input.name}' (${input.duration_minutes} min) for calendar ${input.calendar_id} of tenant ${tenant.primary_domain}`]);
    await print(ctx, cmd, { ...(await createMeetingLink(store, tenant.id, input)) });
  });
}

export async function meetingLinksList(ctx: CliContext, cmd: Command): Promise<void> {
  await withStore(ctx, cmd, false, async ({ store, tenantOf }, opts) => {
    const rows = (await store.meetingLinks.list((await tenantOf(opts)).id)).map((l) => ({ ...l }));
    await printList(ctx, cmd, rows, ['id', 'calendar_id', 'name', 'duration_minutes', 'created_at']);
  });
}

export async function meetingLinksSchedule(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withStore(ctx, cmd, true, async ({ store, tenantOf }, opts) => {
    const linkId = wholeNumber('meeting link id', id);
    const booker = { name: String(opts.name), email: String(opts.email), contact_number: (opts.contactNumber as string | undefined) ?? null };
    const start = eventTime('--start', String(opts.start));
    const tenant = await tenantOf(opts);
    if (isDryRun(cmd)) return plan(ctx, [`would book ${booker.name} <${booker.email}> at ${start} through meeting link ${linkId} of tenant ${tenant.primary_domain}, sending events.created and meeting_links.scheduled`]);
    const r = await scheduleMeeting(store, tenant.id, linkId, booker, start);
    await print(ctx, cmd, {
      meeting_link_id: r.link.id,
      event_id: r.event_id,
      calendar_id: r.link.calendar_id,
      customer_id: r.customer_id,
      customer_created: r.customer_created,
      webhook_events: ['events.created', 'meeting_links.scheduled'],
    });
  });
}
