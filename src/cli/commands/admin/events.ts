/**
 * `confctl admin events create|update|reschedule|delete`: change a tenant's calendar events in the
 * data directory or, with `--database`, in PostgreSQL; each change writes its webhook deliveries
 * (decisions §13) in its own transaction.
 */
import type { Command } from 'commander';
import { createEvent, deleteEvent, type EventChange, eventTime, updateEvent } from '../../../admin/events.js';
import type { EventPatch } from '../../../store/types.js';
import { type CliContext, UsageError } from '../../context.js';
import { isDryRun, type Opts, plan, print, wholeNumber } from './local.js';
import { withStore } from './store.js';

const changeRow = ({ event, emitted }: EventChange) => ({
  id: event.id,
  calendar_id: event.calendar_id,
  title: event.title,
  start: event.start,
  end: event.end,
  webhook_events: emitted,
});

const optionalTime = (flag: string, value: unknown) => (value === undefined ? undefined : eventTime(flag, String(value)));

function patchOf(opts: Opts): EventPatch {
  const patch: EventPatch = {
    title: opts.title as string | undefined,
    start: optionalTime('--start', opts.start),
    end: optionalTime('--end', opts.end),
    body: opts.body as string | undefined,
    location: opts.location as string | undefined,
  };
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
}

export async function eventsCreate(ctx: CliContext, cmd: Command): Promise<void> {
  await withStore(ctx, cmd, true, async ({ store, tenantOf }, opts) => {
    const input = {
      calendar_id: wholeNumber('--calendar', opts.calendar),
      title: String(opts.title),
      start: eventTime('--start', String(opts.start)),
      end: eventTime('--end', String(opts.end)),
      body: (opts.body as string | undefined) ?? null,
      location: (opts.location as string | undefined) ?? null,
    };
    const tenant = await tenantOf(opts);
    if (isDryRun(cmd)) return plan(ctx, [`would create event '${input.title}' in calendar ${input.calendar_id} of tenant ${tenant.primary_domain} (${input.start} to ${input.end}), sending events.created`]);
    await print(ctx, cmd, changeRow(await createEvent(store, tenant.id, input)));
  });
}

async function change(ctx: CliContext, cmd: Command, id: string, patchFrom: (opts: Opts) => EventPatch): Promise<void> {
  await withStore(ctx, cmd, true, async ({ store, tenantOf }, opts) => {
    const eventId = wholeNumber('event id', id);
    const patch = patchFrom(opts);
    const tenant = await tenantOf(opts);
    if (isDryRun(cmd)) return plan(ctx, [`would change ${Object.keys(patch).join(', ')} of event ${eventId} of tenant ${tenant.primary_domain}`]);
    await print(ctx, cmd, changeRow(await updateEvent(store, tenant.id, eventId, patch)));
  });
}

export async function eventsUpdate(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await change(ctx, cmd, id, (opts) => {
    const patch = patchOf(opts);
    if (Object.keys(patch).length === 0) throw new UsageError('say what to change: --title, --start, --end, --body or --location');
    return patch;
  });
}

export async function eventsReschedule(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await change(ctx, cmd, id, (opts) => {
    const { start, end } = patchOf(opts);
    if (start === undefined && end === undefined) throw new UsageError('give the new --start, --end or both');
    return Object.fromEntries(Object.entries({ start, end }).filter(([, v]) => v !== undefined));
  });
}

export async function eventsDelete(ctx: CliContext, cmd: Command, id: string): Promise<void> {
  await withStore(ctx, cmd, true, async ({ store, tenantOf }, opts) => {
    const eventId = wholeNumber('event id', id);
    const tenant = await tenantOf(opts);
    if (isDryRun(cmd)) return plan(ctx, [`would delete event ${eventId} of tenant ${tenant.primary_domain}, sending events.deleted`]);
    await print(ctx, cmd, { ...changeRow(await deleteEvent(store, tenant.id, eventId)), deleted: true });
  });
}
