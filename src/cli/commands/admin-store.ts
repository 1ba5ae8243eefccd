/**
 * The store an `admin webhooks|events|meeting-links|roles|departments|invitations|conferences|recordings …` command works on: the SQLite data
 * directory, or the PostgreSQL database of `--database` (else `CONFCTL_DATABASE_URL` unless
 * `--data`; see `databaseUrl`). The commands are written once over the async `DataStore` and the
 * `AdminChanges` below; the PostgreSQL side is loaded only when a database is given, so the
 * SQLite path never loads pg.
 */
import type { Command } from 'commander';
import { createEvent, deleteEvent, type EventChange, type NewEvent, updateEvent } from '../../admin/events.js';
import { type ImportKind, importRecords, type ImportResult } from '../../admin/import.js';
import { endConference, failRecording, finishRecording, startConference } from '../../admin/lifecycle.js';
import { type Booker, createMeetingLink, type NewMeetingLink, type Scheduled, scheduleMeeting } from '../../admin/meeting-links.js';
import { trigger, type TriggerResult } from '../../admin/trigger.js';
import type { DataStore } from '../../store/port.js';
import type { OnlineConference, OnlineConferenceRecording } from '../../contract/resources.js';
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
  /** The provider's side (src/admin/lifecycle.ts); with `dryRun` each runs and is rolled back, every check made. */
  startConference(tenantId: number, id: number, now: Date, dryRun: boolean): Promise<{ conference: OnlineConference; recording: OnlineConferenceRecording }>;
  endConference(tenantId: number, id: number, now: Date, dryRun: boolean): Promise<{ conference: OnlineConference; recordings: OnlineConferenceRecording[] }>;
  finishRecording(tenantId: number, id: number, options: { mediaDir: string; file?: string; now: Date }): Promise<OnlineConferenceRecording>;
  failRecording(tenantId: number, id: number, now: Date, dryRun: boolean): Promise<OnlineConferenceRecording>;
  /** `admin import` (src/admin/import.ts), all or nothing; `fileName` names the file in errors. */
  importRecords(tenantId: number, kind: ImportKind, text: string, fileName: string, dryRun: boolean): Promise<ImportResult>;
}

/** An opened store with what the admin commands need beside it. */
export interface AdminStore {
  store: DataStore;
  changes: AdminChanges;
  /** The tenant of `--tenant` (primary or alias domain), else the first; a CLI error (exit 4) when there is none. */
  tenantOf(opts: Opts): Promise<TenantRecord>;
  /** Where recording files go: `--media`, else CONFCTL_MEDIA_DIR, else the data directory's `media/` (as `serve` resolves it). */
  mediaDir: string;
}

/** Runs `work` in a transaction that is always rolled back and answers its result: a dry run with every check of a real one. */
export function rolledBack<T>(store: Store, work: () => T): T {
  const undo = new Error('dry run: roll back');
  let result: T | undefined;
  try {
    store.transaction(() => {
      result = work();
      throw undo;
    });
  } catch (err) {
    if (err !== undo) throw err;
  }
  return result as T;
}

function sqliteChanges(store: Store): AdminChanges {
  const planned = <T>(dryRun: boolean, run: () => T): T => (dryRun ? rolledBack(store, run) : run());
  return {
    createEvent: async (tenantId, input) => createEvent(store, tenantId, input),
    updateEvent: async (tenantId, id, patch) => updateEvent(store, tenantId, id, patch),
    deleteEvent: async (tenantId, id) => deleteEvent(store, tenantId, id),
    createMeetingLink: async (tenantId, input) => createMeetingLink(store, tenantId, input),
    scheduleMeeting: async (tenantId, linkId, booker, start) => scheduleMeeting(store, tenantId, linkId, booker, start),
    trigger: async (tenantId, type, now) => trigger(store, tenantId, type, now),
    startConference: async (tenantId, id, now, dryRun) => planned(dryRun, () => startConference(store, tenantId, id, now)),
    endConference: async (tenantId, id, now, dryRun) => planned(dryRun, () => endConference(store, tenantId, id, now)),
    finishRecording: async (tenantId, id, options) => finishRecording(store, tenantId, id, options),
    failRecording: async (tenantId, id, now, dryRun) => planned(dryRun, () => failRecording(store, tenantId, id, { now })),
    importRecords: async (tenantId, kind, text, fileName, dryRun) => planned(dryRun, () => importRecords(store, tenantId, kind, text, { fileName })),
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
  return withLocal(ctx, cmd, (local, opts) =>
    work({ store: local.store, changes: sqliteChanges(local.store), tenantOf: async (o) => tenantOf(local, o), mediaDir: local.layout.mediaDir }, opts),
  );
}
