/**
 * `confctl admin events create|update|reschedule|delete`: change a tenant's calendar events in the
 * data directory or, with `--database`, in PostgreSQL; each change writes its webhook deliveries
 * (decisions §13) in its own transaction.
 */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import { createEvent, deleteEvent, type EventChange, eventTime, updateEvent } from '../../../admin/events.js';
import type { EventPatch } from '../../../store/types.js';
import { UsageError } from '../../context.js';
import { plan, print, wholeNumber } from './local.js';
import { withStore } from './store.js';

export type EventsCreateOptions = AdminCommon & { tenant?: string; calendar: string; title: string; start: string; end: string; body?: string; location?: string };
/** The flags of `update` and `reschedule` (reschedule has only the times). */
export type EventPatchFlags = { tenant?: string; title?: string; start?: string; end?: string; body?: string; location?: string };
export type EventChangeOptions = AdminCommon & EventPatchFlags & { id: string };
export type EventsDeleteOptions = AdminCommon & { id: string; tenant?: string };

const changeRow = ({ event, emitted }: EventChange) => ({
  id: event.id,
  calendar_id: event.calendar_id,
  title: event.title,
  start: event.start,
  end: event.end,
  webhook_events: emitted,
});

const optionalTime = (flag: string, value: string | undefined) => (value === undefined ? undefined : eventTime(flag, value));

function patchOf(options: EventPatchFlags): EventPatch {
  const patch: EventPatch = {
    title: options.title,
    start: optionalTime('--start', options.start),
    end: optionalTime('--end', options.end),
    body: options.body,
    location: options.location,
  };
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
}

export async function eventsCreate(options: EventsCreateOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const input = {
      calendar_id: wholeNumber('--calendar', options.calendar),
      title: options.title,
      start: eventTime('--start', options.start),
      end: eventTime('--end', options.end),
      body: options.body ?? null,
      location: options.location ?? null,
    };
    const tenant = await tenantOf(options);
    if (options.globals.dryRun) return plan(ctx, [`would create event '${input.title}' in calendar ${input.calendar_id} of tenant ${tenant.primary_domain} (${input.start} to ${input.end}), sending events.created`]);
    await print(ctx, options.globals, changeRow(await createEvent(store, tenant.id, input)));
  });
}

async function change(options: EventChangeOptions, ctx: CliContext, patchFrom: (options: EventPatchFlags) => EventPatch): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const eventId = wholeNumber('event id', options.id);
    const patch = patchFrom(options);
    const tenant = await tenantOf(options);
    if (options.globals.dryRun) return plan(ctx, [`would change ${Object.keys(patch).join(', ')} of event ${eventId} of tenant ${tenant.primary_domain}`]);
    await print(ctx, options.globals, changeRow(await updateEvent(store, tenant.id, eventId, patch)));
  });
}

export async function eventsUpdate(options: EventChangeOptions, ctx: CliContext): Promise<void> {
  await change(options, ctx, (flags) => {
    const patch = patchOf(flags);
    if (Object.keys(patch).length === 0) throw new UsageError('say what to change: --title, --start, --end, --body or --location');
    return patch;
  });
}

export async function eventsReschedule(options: EventChangeOptions, ctx: CliContext): Promise<void> {
  await change(options, ctx, (flags) => {
    const { start, end } = patchOf(flags);
    if (start === undefined && end === undefined) throw new UsageError('give the new --start, --end or both');
    return Object.fromEntries(Object.entries({ start, end }).filter(([, v]) => v !== undefined));
  });
}

export async function eventsDelete(options: EventsDeleteOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const eventId = wholeNumber('event id', options.id);
    const tenant = await tenantOf(options);
    if (options.globals.dryRun) return plan(ctx, [`would delete event ${eventId} of tenant ${tenant.primary_domain}, sending events.deleted`]);
    await print(ctx, options.globals, { ...changeRow(await deleteEvent(store, tenant.id, eventId)), deleted: true });
  });
}
