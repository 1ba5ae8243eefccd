/**
 * The store an `admin webhooks|events|meeting-links …` command works on: the SQLite data
 * directory, or the PostgreSQL database of `--database` (else `CONFCTL_DATABASE_URL` unless
 * `--data`; see `databaseUrl`). The commands are written once over the async `DataStore` and the
 * `AdminChanges` below; the PostgreSQL side is loaded only when a database is given, so the
 * SQLite path never loads pg.
 */
import type { Command } from 'commander';
import { createEvent, deleteEvent, type EventChange, type NewEvent, updateEvent } from '../../admin/events.js';
import { type Booker, createMeetingLink, type NewMeetingLink, type Scheduled, scheduleMeeting } from '../../admin/meeting-links.js';
import { trigger, type TriggerResult } from '../../admin/trigger.js';
import type { DataStore } from '../../store/port.js';
import type { EventPatch, MeetingLinkRecord, Store, TenantRecord } from '../../store/types.js';
import type { CliContext } from '../context.js';
import { databaseUrl, type Opts, tenantOf, withLocal } from './admin-local.js';

/**
 * The changes that write webhook events with them, atomically: on SQLite the functions of
 * src/admin (one IMMEDIATE transaction each), on PostgreSQL those of src/admin/postgres-changes.ts
 * (one transaction each).
 */
export interface AdminChanges {
  createEvent(tenantId: number, input: NewEvent): Promise<EventChange>;
  updateEvent(tenantId: number, id: number, patch: EventPatch): Promise<EventChange>;
  deleteEvent(tenantId: number, id: number): Promise<EventChange>;
  createMeetingLink(tenantId: number, input: NewMeetingLink): Promise<MeetingLinkRecord>;
  scheduleMeeting(tenantId: number, linkId: number, booker: Booker, start: string): Promise<Scheduled>;
  trigger(tenantId: number, type: string, now: Date): Promise<TriggerResult>;
}

/** An opened store with what the admin commands need beside it. */
export interface AdminStore {
  store: DataStore;
  changes: AdminChanges;
  /** The tenant of `--tenant` (primary or alias domain), else the first; a CLI error (exit 4) when there is none. */
  tenantOf(opts: Opts): Promise<TenantRecord>;
}

function sqliteChanges(store: Store): AdminChanges {
  return {
    createEvent: async (tenantId, input) => createEvent(store, tenantId, input),
    updateEvent: async (tenantId, id, patch) => updateEvent(store, tenantId, id, patch),
    deleteEvent: async (tenantId, id) => deleteEvent(store, tenantId, id),
    createMeetingLink: async (tenantId, input) => createMeetingLink(store, tenantId, input),
    scheduleMeeting: async (tenantId, linkId, booker, start) => scheduleMeeting(store, tenantId, linkId, booker, start),
    trigger: async (tenantId, type, now) => trigger(store, tenantId, type, now),
  };
}

/**
 * Runs `work` on the command's store and always closes it; admin errors become exit codes. `write`
 * says the command changes data: on PostgreSQL it then opens the database as `serve` does
 * (creating confctl's schema if missing), while reads and `--dry-run` never change it (a database
 * without the schema reads as empty). On SQLite it is `withLocal`, as before.
 */
export async function withStore<T>(ctx: CliContext, cmd: Command, write: boolean, work: (s: AdminStore, opts: Opts) => Promise<T>): Promise<T> {
  const url = databaseUrl(ctx, cmd);
  if (url) return (await import('./admin-store-postgres.js')).withDatabaseStore(ctx, cmd, url, write, work);
  return withLocal(ctx, cmd, (local, opts) => work({ store: local.store, changes: sqliteChanges(local.store), tenantOf: async (o) => tenantOf(local, o) }, opts));
}
