import type { CalendarEvent, Customer, EventAttendee, OnlineConferenceAccount, User } from '../../contract/index.js';
import { EVENT_ATTENDEE_STATUS as EA, RECORDING_STATUS as RS } from '../../contract/resource-fields.js';
import type { CalendarRecord } from '../../store/types.js';
import { ask, type Steps } from '../steps.js';
import { at } from './demo-data.js';
import type { DemoFile, DemoSummary } from './demo.js';

type Counts = Omit<DemoSummary, 'skipped' | 'departments' | 'users' | 'customers' | 'files'>;
const EA_CYCLE = [EA.Accepted, EA.NeedsAction, EA.Declined, EA.Tentative] as const;

/**
 * The connected half of the demo as steps: accounts, calendars, events, conferences, attendees
 * and recordings, built from the live demo users and customers. Finished recordings are appended
 * to `files` (relative path and length); the caller writes them after the transaction commits.
 */
export function* demoConferenceSteps(tenantId: number, users: User[], customers: Customer[], files: DemoFile[]): Steps<Counts> {
  const zoom = yield* ask((s) => s.providers.ensure('zoom'));
  const google = yield* ask((s) => s.providers.ensure('google'));
  let connected = 0;
  const rooms: OnlineConferenceAccount[] = [];
  for (const [i, u] of users.slice(0, 6).entries()) {
    const ca = yield* ask((s) => s.connectedAccounts.insert(tenantId, { owner_type: 'User', owner_id: u.id, provider_id: zoom.id,
      provider_uid: `zoom-${1000 + i}`, provider_email: u.email }));
    connected++;
    if (i < 3) {
      yield* ask((s) => s.connectedAccounts.insert(tenantId, { owner_type: 'User', owner_id: u.id, provider_id: google.id,
        provider_uid: `google-${2000 + i}`, provider_email: u.email }));
      connected++;
    }
    rooms.push(yield* ask((s) => s.conferenceAccounts.insert(tenantId, { owner_type: 'User', owner_id: u.id, connected_account_id: ca.id, name: `${u.name}'s Zoom room` })));
  }
  // A second room for the first user, without a connected account.
  rooms.push(yield* ask((s) => s.conferenceAccounts.insert(tenantId, { owner_type: 'User', owner_id: users[0].id, name: `${users[0].name}'s team room` })));

  const calendars: CalendarRecord[] = [];
  for (const u of users.slice(0, 4)) calendars.push(yield* ask((s) => s.calendars.insert(tenantId, { owner_type: 'User', owner_id: u.id, name: `${u.first_name}'s work calendar` })));
  const events: CalendarEvent[] = [];
  for (const [c, cal] of calendars.entries()) {
    for (const e of [0, 1, 2]) {
      const owner = users[c];
      const customer = customers[(c * 3 + e) % customers.length];
      const guests: EventAttendee[] = [
        { email: owner.email, name: owner.name, status: EA.Accepted, is_organizer: true, customer_id: null, calendar_id: cal.id },
        ...[1, 2].map((k): EventAttendee => {
          const g = users[(c + e + k * 3) % users.length];
          return { email: g.email, name: g.name, status: EA_CYCLE[(c + e + k) % 4], is_organizer: false, customer_id: null, calendar_id: null };
        }),
        { email: customer.email, name: customer.name, status: EA_CYCLE[(c + e) % 4], is_organizer: false, customer_id: customer.id, calendar_id: null },
      ];
      const canceled = c === 1 && e === 2;
      events.push(yield* ask((s) => s.events.insert(tenantId, {
        calendar_id: cal.id,
        title: ['Weekly sync', 'Customer demo', 'Planning'][e] + ` (${owner.first_name})`,
        start: at(60 * 24 * (e - 1) + c * 60),
        end: at(60 * 24 * (e - 1) + c * 60 + 45),
        attendees: guests,
        body: `Agenda for ${['the weekly sync', 'the customer demo', 'planning'][e]}.`,
        location: e === 1 ? 'Online' : 'Room 4.01',
        cancel_note: canceled ? 'Moved to next week.' : null,
        canceled_by_id: canceled ? owner.id : null,
        canceled_by_type: canceled ? 'User' : null,
        public_id: `evt-${c + 1}-${e + 1}`,
        provider_event_id: `gcal-${(c + 1) * 100 + e}`,
        customer_id: e === 1 ? customers[c].id : null,
      })));
    }
  }

  let attendees = 0;
  function* conference(room: number, key: string, title: string, backer: number | null, started: number | null, ended: number | null, guests: { email: string; name: string }[]) {
    const conf = yield* ask((s) => s.conferences.insert(tenantId, { online_conference_account_id: rooms[room].id, public_id: `demo-${key}`, title,
      is_public: room % 2 === 0, backer_event_id: backer, started_at: started === null ? null : at(started), ended_at: ended === null ? null : at(ended) }));
    const owner = users[room === rooms.length - 1 ? 0 : room];
    for (const g of [{ email: owner.email, name: owner.name }, ...guests]) {
      const user = yield* ask((s) => s.users.findByEmail(tenantId, g.email));
      const customer = user ? undefined : yield* ask((s) => s.customers.findByEmail(tenantId, g.email));
      const match = user ? { attendee_type: 'User' as const, attendee_id: user.id } : customer ? { attendee_type: 'Customer' as const, attendee_id: customer.id } : { attendee_type: null, attendee_id: null };
      if (yield* ask((s) => s.attendees.findByEmail(conf.id, g.email))) continue;
      const joined = started === null ? null : at(started + attendees % 3);
      yield* ask((s) => s.attendees.insert(conf.id, { email: g.email, name: g.name, ...match, joined_at: joined }));
      attendees++;
    }
    return conf;
  }
  const person = (p: User | Customer) => ({ email: p.email, name: p.name });
  const upcoming = yield* conference(0, 'weekly-sync', 'Weekly sync', events[0].id, null, null, [person(users[3]), person(users[6])]);
  const planning = yield* conference(6, 'planning', 'Quarterly planning', null, null, null, [person(users[1]), person(customers[4])]);
  const running = yield* conference(1, 'customer-demo', 'Customer demo', events[4].id, -30, null,
    [person(customers[0]), person(customers[1]), person(users[5]), { email: 'guest@partner.example.net', name: 'Guest Speaker' }]);
  const ended = yield* conference(2, 'retro', 'Sprint retrospective', events[2].id, -60 * 24, -60 * 24 + 50, [person(users[7]), person(users[8]), person(customers[2])]);

  // Recordings: every status. Finished ones get files of 3 and 5 seconds.
  const finished = [];
  for (const [i, seconds] of [3, 5].entries()) {
    const started = at(-60 * 24 + i * 10);
    const r = yield* ask((s) => s.recordings.insert(ended.id, { status: RS.Finished, started_at: started, stopped_at: new Date(Date.parse(started) + seconds * 1000).toISOString() }));
    const rel = `recordings/rec-${r.id}.wav`;
    files.push({ rel, seconds });
    finished.push(yield* ask((s) => s.recordings.update(r.id, { file_name: `rec-${r.id}.wav`, path: rel })));
  }
  const failed = yield* ask((s) => s.recordings.insert(ended.id, { status: RS.Failed, started_at: at(-60 * 24 + 30), stopped_at: at(-60 * 24 + 31) }));
  const recording = yield* ask((s) => s.recordings.insert(running.id, { status: RS.Recording, started_at: at(-25) }));
  const processing = yield* ask((s) => s.recordings.insert(running.id, { status: RS.Processing, started_at: at(-29), stopped_at: at(-26) }));

  // Booking pages (decisions §13: the demo has some): two on the first calendar, one on the second.
  const links = [];
  for (const [c, name, minutes] of [[0, 'Intro call', 30], [0, 'Product demo', 45], [1, 'Office hours', 20]] as const) {
    links.push(yield* ask((s) => s.meetingLinks.insert(tenantId, { calendar_id: calendars[c].id, name, duration_minutes: minutes })));
  }

  return {
    connectedAccounts: connected,
    conferenceAccounts: rooms.length,
    calendars: calendars.length,
    events: events.length,
    conferences: 4,
    attendees,
    recordings: 5,
    meetingLinks: links.length,
    ids: {
      user: users[0].id, customer: customers[0].id, conference_account: rooms[0].id, calendar: calendars[0].id, event: events[0].id,
      conference_not_started: upcoming.id, conference_planning: planning.id, conference_running: running.id, conference_ended: ended.id,
      recording_finished: finished[0].id, recording_failed: failed.id, recording_recording: recording.id, recording_processing: processing.id,
      meeting_link: links[0].id,
    },
  };
}
