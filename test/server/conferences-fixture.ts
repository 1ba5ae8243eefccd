import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServerOptions } from '../../src/server/index.js';
import { setup } from './fixtures.js';

/**
 * The server fixture plus a conference world in `localhost`: users Ada (owner of account
 * `account`) and Bob, a deleted user, customer Cleo, a calendar with an event, and a conference
 * account in `other.test` with its own user, calendar and event (for cross-tenant checks).
 * `clock` is the server's frozen clock (epoch ms), real and instance clock alike; `mediaDir` a fresh temporary directory.
 */
export function conferenceSetup(options: Partial<ServerOptions> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'confctl-conf-'));
  const mediaDir = path.join(dir, 'media');
  const clock = { now: Date.parse('2026-03-01T12:00:00.000Z') };
  const f = setup({ mediaDir, now: () => clock.now, clock: { now: () => new Date(clock.now) }, ...options });
  const { store, tenant, other } = f;
  const ada = store.users.insert(tenant.id, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@acme.test' });
  const bob = store.users.insert(tenant.id, { first_name: 'Bob', last_name: 'Babbage', email: 'bob@acme.test' });
  store.users.insert(tenant.id, { first_name: 'Gone', last_name: 'User', email: 'gone@acme.test', deleted_at: '2025-01-01T00:00:00.000Z' });
  const cleo = store.customers.insert(tenant.id, { first_name: 'Cleo', last_name: 'Client', email: 'cleo@client.test' });
  const account = store.conferenceAccounts.insert(tenant.id, { owner_type: 'User', owner_id: ada.id, name: 'Ada room' });
  const calendar = store.calendars.insert(tenant.id, { owner_type: 'User', owner_id: ada.id, name: 'Ada' });
  const event = store.events.insert(tenant.id, {
    calendar_id: calendar.id,
    title: 'Kick-off',
    start: '2026-03-02T09:00:00Z',
    end: '2026-03-02T10:00:00Z',
    attendees: [{ email: 'cleo@client.test', name: 'Cleo', status: 1, is_organizer: false, customer_id: cleo.id, calendar_id: null }],
  });
  const otherUser = store.users.insert(other.id, { first_name: 'Otto', last_name: 'Other', email: 'otto@other.test' });
  const otherAccount = store.conferenceAccounts.insert(other.id, { owner_type: 'User', owner_id: otherUser.id, name: 'Otto room' });
  const otherCalendar = store.calendars.insert(other.id, { owner_type: 'User', owner_id: otherUser.id, name: 'Otto' });
  const otherEvent = store.events.insert(other.id, { calendar_id: otherCalendar.id, title: 'Other', start: '2026-03-02T09:00:00Z', end: '2026-03-02T10:00:00Z' });

  /** A conference of `localhost` inserted directly, owner attendee included. */
  const conference = (publicId = 'weekly', extra: { backer_event_id?: number | null } = {}) => {
    const c = store.conferences.insert(tenant.id, { online_conference_account_id: account.id, public_id: publicId, title: 'Weekly', is_public: false, ...extra });
    store.attendees.insert(c.id, { email: ada.email, name: ada.name, attendee_type: 'User', attendee_id: ada.id });
    return c;
  };
  const cleanup = () => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { ...f, dir, mediaDir, clock, ada, bob, cleo, account, calendar, event, otherUser, otherAccount, otherCalendar, otherEvent, conference, cleanup };
}

export type ConferenceFixture = ReturnType<typeof conferenceSetup>;

/** Starts listening on an ephemeral port of 127.0.0.1 (the `localhost` tenant's alias); returns the origin. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops a listening server, cutting keep-alive connections. */
export function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
