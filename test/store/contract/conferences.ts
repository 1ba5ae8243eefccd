import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../src/store/index.js';
import type { DataStore } from '../../../src/store/port.js';
import { eachStore, f, type Fixture, fixture, q, type StoreFactory } from './fixtures.js';

/**
 * A user's Zoom account with a conference room, a calendar with one event of two attendees, and
 * a conference backed by that event: what the conference tests (and the units') start from.
 */
export async function conferenceWorld(store: DataStore, fx: Fixture) {
  const owner = fx.users.lovelace;
  const zoom = await store.providers.ensure('zoom');
  const ca = await store.connectedAccounts.insert(fx.a, { owner_type: 'User', owner_id: owner.id, provider_id: zoom.id, provider_uid: 'z1', provider_email: owner.email });
  const room = await store.conferenceAccounts.insert(fx.a, { owner_type: 'User', owner_id: owner.id, connected_account_id: ca.id, name: 'Room' });
  const cal = await store.calendars.insert(fx.a, { owner_type: 'User', owner_id: owner.id, name: 'Work' });
  const event = await store.events.insert(fx.a, {
    calendar_id: cal.id, title: 'Sync', start: '2026-01-05T09:00:00Z', end: '2026-01-05T10:00:00.000Z',
    attendees: [
      { email: owner.email, name: 'Ada', status: 1, is_organizer: true, customer_id: null, calendar_id: cal.id },
      { email: 'emma@c.example', name: null, status: 3, is_organizer: false, customer_id: fx.customers.berlin.id, calendar_id: null },
    ],
  });
  const conf = await store.conferences.insert(fx.a, { online_conference_account_id: room.id, public_id: 'Sync-1', title: 'Sync', is_public: true, backer_event_id: event.id });
  return { owner, zoom, ca, room, cal, event, conf };
}

export type World = Awaited<ReturnType<typeof conferenceWorld>>;

/** Accounts, calendars, events, conferences, attendees and recordings. */
export function conferenceContract(factory: StoreFactory) {
  describe(`${factory.name}: accounts, events, conferences`, () => {
    let store: DataStore;
    let fx: Fixture;
    let world: World;
    eachStore(factory, async (s) => {
      store = s;
      fx = await fixture(store);
      world = await conferenceWorld(store, fx);
    });

    it('providers are global and ensured once', async () => {
      expect(await store.providers.ensure('zoom')).toEqual(world.zoom);
      await store.providers.ensure('google');
      expect((await store.providers.list()).map((p) => p.name)).toEqual(['zoom', 'google']);
    });

    it('lists an owner\'s accounts by id with totals, tenant-scoped', async () => {
      const { owner, zoom, ca, room } = world;
      const ca2 = await store.connectedAccounts.insert(fx.a, { owner_type: 'User', owner_id: owner.id, provider_id: zoom.id, provider_uid: 'z2' });
      expect(ca2).toMatchObject({ provider_uid: 'z2', provider_email: null, deleted_at: null });
      expect(await store.connectedAccounts.listByOwner(fx.a, 'User', owner.id, { page_size: 1, page_number: 2 })).toEqual({ rows: [await store.connectedAccounts.get(fx.a, ca2.id)], total: 2 });
      expect(await store.connectedAccounts.listByOwner(fx.b, 'User', owner.id, { page_size: 10, page_number: 1 })).toEqual({ rows: [], total: 0 });
      expect((await store.connectedAccounts.listByOwner(fx.a, 'Customer', owner.id, { page_size: 10, page_number: 1 })).total).toBe(0);
      expect((await store.conferenceAccounts.listByOwner(fx.a, 'User', owner.id, { page_size: 10, page_number: 1 })).rows).toEqual([room]);
      expect(room).toMatchObject({ owner_type: 'User', owner_id: owner.id, connected_account_id: ca.id, name: 'Room', deleted_at: null });
      expect(await store.conferenceAccounts.get(fx.b, room.id)).toBeUndefined();
      expect(await store.connectedAccounts.get(fx.a, ca.id)).toMatchObject({ provider_uid: 'z1', provider_email: owner.email });
    });

    it('reads an event only through its own calendar, with attendees and the backed conference', async () => {
      const { cal, event, conf } = world;
      const got = (await store.events.get(fx.a, cal.id, event.id))!;
      expect(got).toMatchObject({ title: 'Sync', start: '2026-01-05T09:00:00.000Z', end: '2026-01-05T10:00:00.000Z', calendar_id: cal.id, body: null });
      expect(got.attendees).toEqual([
        { email: world.owner.email, name: 'Ada', status: 1, is_organizer: true, customer_id: null, calendar_id: cal.id },
        { email: 'emma@c.example', name: null, status: 3, is_organizer: false, customer_id: fx.customers.berlin.id, calendar_id: null },
      ]);
      expect(got.online_conference).toEqual(conf);
      const cal2 = await store.calendars.insert(fx.a, { owner_type: 'User', owner_id: world.owner.id, name: 'Other' });
      expect(await store.events.get(fx.a, cal2.id, event.id)).toBeUndefined();
      expect(await store.events.get(fx.b, cal.id, event.id)).toBeUndefined();
      expect(await store.events.exists(fx.a, event.id)).toBe(true);
      expect(await store.events.exists(fx.b, event.id)).toBe(false);
      expect(await store.calendars.get(fx.b, cal.id)).toBeUndefined();
      const lone = await store.events.insert(fx.a, { calendar_id: cal2.id, title: 'Lone', start: '2026-01-06', end: '2026-01-06T01:00:00Z' });
      expect(lone).toMatchObject({ attendees: [], online_conference: null, start: '2026-01-06T00:00:00.000Z' });
    });

    it('conferences: is_occurred follows started_at; unique public_id and backer event per tenant', async () => {
      const { conf, room, event } = world;
      expect(conf).toMatchObject({ public_id: 'Sync-1', is_public: true, is_occurred: false, started_at: null, ended_at: null, backer_event_id: event.id });
      expect(await store.conferences.publicIdTaken(fx.a, 'Sync-1')).toBe(true);
      expect(await store.conferences.publicIdTaken(fx.a, 'sync-1')).toBe(false);
      expect(await store.conferences.publicIdTaken(fx.b, 'Sync-1')).toBe(false);
      expect(await store.conferences.backerEventTaken(fx.a, event.id)).toBe(true);
      expect(await store.conferences.backerEventTaken(fx.b, event.id)).toBe(false);
      await expect(async () => store.conferences.insert(fx.a, { online_conference_account_id: room.id, public_id: 'Sync-1', title: 'x', is_public: false })).rejects.toThrow();
      const patched = await store.conferences.update(fx.a, conf.id, { title: 'Renamed', is_public: false });
      expect(patched).toMatchObject({ title: 'Renamed', is_public: false, is_occurred: false });
      const started = await store.conferences.update(fx.a, conf.id, { started_at: '2026-01-05T09:01:00Z' });
      expect(started).toMatchObject({ title: 'Renamed', is_occurred: true, started_at: '2026-01-05T09:01:00.000Z', ended_at: null });
      expect(await store.conferences.get(fx.b, conf.id)).toBeUndefined();
      await expect(async () => store.conferences.update(fx.b, conf.id, { title: 'x' })).rejects.toThrow();
    });

    it('attendees: one per email (case-insensitive), counted and paged by id', async () => {
      const { conf } = world;
      const a1 = await store.attendees.insert(conf.id, { email: 'ada@x.example', name: 'Ada', attendee_type: 'User', attendee_id: fx.users.lovelace.id });
      const a2 = await store.attendees.insert(conf.id, { email: 'guest@x.example', name: 'Guest', attendee_type: null, attendee_id: null, joined_at: '2026-01-05T09:02:00Z' });
      expect(a2).toMatchObject({ online_conference_id: conf.id, attendee_type: null, attendee_id: null, joined_at: '2026-01-05T09:02:00.000Z', deleted_at: null });
      expect(await store.attendees.findByEmail(conf.id, 'ADA@X.example')).toEqual(a1);
      expect(await store.attendees.count(conf.id)).toBe(2);
      await expect(async () => store.attendees.insert(conf.id, { email: 'Ada@x.example', name: 'Dup', attendee_type: null, attendee_id: null })).rejects.toThrow();
      expect(await store.attendees.listByConference(conf.id, { page_size: 1, page_number: 2 })).toEqual({ rows: [a2], total: 2 });
      expect(await store.attendees.listByConference(conf.id, { page_size: 5, page_number: 2 })).toEqual({ rows: [], total: 2 });
    });

    it('recordings: tenant-scoped get, by status, update', async () => {
      const { conf } = world;
      const r1 = await store.recordings.insert(conf.id, { status: 1, started_at: '2026-01-05T09:00:00Z' });
      const r2 = await store.recordings.insert(conf.id, { status: 3, file_name: 'rec.wav', path: 'recordings/rec.wav', started_at: '2026-01-05T09:00:00Z', stopped_at: '2026-01-05T09:00:03Z' });
      expect(await store.recordings.get(fx.a, r2.id)).toMatchObject({ status: 3, file_name: 'rec.wav', path: 'recordings/rec.wav', stopped_at: '2026-01-05T09:00:03.000Z' });
      expect(await store.recordings.get(fx.b, r2.id)).toBeUndefined();
      expect(await store.recordings.byStatus(conf.id, 3)).toEqual([await store.recordings.get(fx.a, r2.id)]);
      const done = await store.recordings.update(r1.id, { status: 2, stopped_at: '2026-01-05T09:10:00Z' });
      expect(done).toMatchObject({ status: 2, started_at: '2026-01-05T09:00:00.000Z', stopped_at: '2026-01-05T09:10:00.000Z', file_name: null });
      expect((await store.recordings.listByConference(conf.id, { page_size: 10, page_number: 1 })).rows.map((r) => r.id)).toEqual([r1.id, r2.id]);
      await expect(async () => store.recordings.insert(conf.id, { status: 9 })).rejects.toThrow();
      await expect(async () => store.recordings.update(999_999, { status: 2 })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('a soft-deleted conference takes its recordings and attendees with it; its recordings read as revoked', async () => {
      const { conf } = world;
      const rec = await store.recordings.insert(conf.id, { status: 3, file_name: 'r.wav', path: 'recordings/r.wav' });
      const att = await store.attendees.insert(conf.id, { email: 'x@x.example', name: 'X', attendee_type: null, attendee_id: null });
      expect(await store.recordings.revoked(fx.a, rec.id)).toBe(false);
      const gone = await store.conferences.softDelete(fx.a, conf.id);
      expect(gone).toMatchObject({ id: conf.id, public_id: 'Sync-1' });
      expect(gone.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(await store.conferences.get(fx.a, conf.id)).toBeUndefined();
      expect(await store.recordings.get(fx.a, rec.id)).toBeUndefined();
      expect(await store.recordings.revoked(fx.a, rec.id)).toBe(true);
      expect(await store.recordings.revoked(fx.b, rec.id)).toBe(false);
      expect((await store.events.get(fx.a, world.cal.id, world.event.id))!.online_conference).toBeNull();
      await expect(async () => store.conferences.softDelete(fx.a, conf.id)).rejects.toBeInstanceOf(NotFoundError);
      // Attendee rows: soft-deleted one at a time; a missing one is not found.
      expect((await store.attendees.softDelete(conf.id, att.id)).deleted_at).not.toBeNull();
      await expect(async () => store.attendees.softDelete(conf.id, att.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('conference lists: booleans as 1/0, is_occurred derived from started_at, text folded, deleted ones trashed', async () => {
      const { room } = world;
      const add = (public_id: string, title: string, is_public: boolean, over: { started_at?: string; ended_at?: string } = {}) =>
        store.conferences.insert(fx.a, { online_conference_account_id: room.id, public_id, title, is_public, ...over });
      const alpha = await add('alpha', 'alpha', false, { started_at: '2026-01-02T09:00:00Z' });
      const beta = await add('Beta', 'Beta', true, { started_at: '2026-01-01T09:00:00Z', ended_at: '2026-01-01T10:00:00Z' });
      const gamma = await add('gamma', 'gamma', false);
      await store.conferences.softDelete(fx.a, gamma.id);
      const ids = async (query = q()) => (await store.conferences.list(fx.a, query)).rows.map((c) => c.public_id);
      expect(await ids()).toEqual(['Sync-1', 'alpha', 'Beta']);
      expect(await ids(q({ with_trashed: true }))).toEqual(['Sync-1', 'alpha', 'Beta', 'gamma']);
      expect(await ids(q({ filter: f('is_public', 'boolean', 'Equal', 1) }))).toEqual(['Sync-1', 'Beta']);
      expect(await ids(q({ filter: f('is_public', 'boolean', 'NotEqual', 1), with_trashed: true }))).toEqual(['alpha', 'gamma']);
      expect(await ids(q({ filter: f('is_occurred', 'boolean', 'Equal', 1) }))).toEqual(['alpha', 'Beta']);
      expect(await ids(q({ filter: f('is_occurred', 'boolean', 'Contains', 0) }))).toEqual(['Sync-1']);
      expect(await ids(q({ filter: f('public_id', 'text', 'Contains', 'YNC') }))).toEqual(['Sync-1']);
      expect(await ids(q({ filter: f('started_at', 'date', 'GreaterThan', '2026-01-01T09:00:00.000Z') }))).toEqual(['alpha']);
      expect(await ids(q({ filter: f('ended_at', 'date', 'NotNull') }))).toEqual(['Beta']);
      expect(await ids(q({ order_by: 'title' }))).toEqual(['alpha', 'Beta', 'Sync-1']);
      expect(await ids(q({ order_by: 'is_occurred', order_direction: 'desc' }))).toEqual(['Beta', 'alpha', 'Sync-1']);
      expect(await ids(q({ order_by: 'started_at' }))).toEqual(['Sync-1', 'Beta', 'alpha']);
      expect(await ids(q({ order_by: 'started_at', order_direction: 'desc' }))).toEqual(['alpha', 'Beta', 'Sync-1']);
      const page = await store.conferences.list(fx.a, q({ page_size: 2, page_number: 2 }));
      expect(page).toEqual({ rows: [beta], total: 3 });
      expect((await store.conferences.list(fx.a, q({ filter: f('is_occurred', 'boolean', 'Equal', 1) }))).rows).toEqual([alpha, beta]);
      expect(await store.conferences.list(fx.b, q())).toEqual({ rows: [], total: 0 });
    });
  });
}
