/**
 * `confctl mirror`: reads a tenant through the API (GETs only) and writes it into a local data
 * directory with its ids, relations and timestamps: users (with their departments, roles,
 * connected and conference accounts), customers, conferences with attendees and recordings.
 * Deleted users, customers and conferences are mirrored too (lists with `with_trashed`); a
 * deleted conference's attendees and recordings cannot be read, so it comes alone.
 *
 * `since` and `limitPerKind` cut the users, customers and conferences lists; whatever a mirrored
 * conference refers to (its account's owner, attendees' users and customers) is read one by one
 * so that relations hold. A conference whose account no mirrored user owns is skipped (counted).
 * Calendar events are not mirrored (the API cannot list them): `backer_event_id` becomes null.
 * Finished recordings with a stored path get a generated WAV of their length.
 *
 * Progress is saved after every page (state.ts); every write may be repeated, so `--resume`
 * reads again at most the page that was being written.
 */
import path from 'node:path';
import type { ApiClient } from '../../client/client.js';
import { ApiError } from '../../client/errors.js';
import type { ListOperationId, Page } from '../../client/types.js';
import type { Customer, OnlineConference, OnlineConferenceAccount, OnlineConferenceAttendee, OnlineConferenceRecording, User } from '../../contract/resources.js';
import { writePrivateFile } from '../../media/files.js';
import { generateWav } from '../../media/wav.js';
import type { MirrorRows } from '../../store/mirror.js';
import type { Anonymizer } from './anonymize.js';
import { fakeAttendee, fakeConference, fakeConferenceAccount, fakeConnectedAccount, fakeCustomer, fakeUser } from './fakes.js';
import { type MirrorState, type Stage, writeState } from './state.js';

export interface MirrorJob {
  client: ApiClient;
  rows: MirrorRows;
  /** The target data directory (where the state is kept) and its media directory. */
  dataDir: string;
  mediaDir: string;
  state: MirrorState;
  anonymizer?: Anonymizer;
  now: () => Date;
  /** After every page: the stage and the counts so far. */
  onProgress?: (stage: Stage, counts: Record<string, number>) => void;
}

/** The largest page the API serves. */
const PAGE = 100;
/** Recordings longer than this are generated at a lower sample rate, keeping files small. */
const FULL_RATE_SECONDS = 60;

const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

/** Every row of a list without filters (attendees, recordings, accounts). */
async function all<K extends ListOperationId>(client: ApiClient, id: K, params: Record<string, string | number>) {
  const rows = [];
  for await (const page of client.paginate(id, { params, query: { page_size: PAGE } })) rows.push(...page.data);
  return rows;
}

export async function runMirror(job: MirrorJob): Promise<MirrorState> {
  const { state } = job;
  const tenantId = state.tenant_id;
  const anonymizer = job.anonymizer;
  for (const tag of state.name_tags) anonymizer?.nameTags.add(tag);
  const at = () => job.now().toISOString();
  const count = (key: string, n = 1) => (state.counts[key] = (state.counts[key] ?? 0) + n);
  const save = () => {
    state.name_tags = anonymizer ? [...anonymizer.nameTags] : [];
    writeState(job.dataDir, state);
    job.onProgress?.(state.stage, state.counts);
  };

  /** Writes users (their departments and roles first) and the live ones' accounts. */
  async function writeUsers(users: User[]): Promise<void> {
    const departments = [...new Map(users.filter((u) => u.department_id !== null).map((u) => [u.department_id!, { id: u.department_id!, name: u.department_name ?? `department-${u.department_id}` }])).values()];
    job.rows.ensureDepartments(tenantId, departments, at());
    job.rows.ensureRoles(tenantId, [...new Set(users.flatMap((u) => (u.role === null ? [] : [u.role])))], at());
    job.rows.users(tenantId, anonymizer ? users.map((u) => fakeUser(anonymizer, u)) : users);
    count('users', users.length);
    for (const user of users.filter((u) => u.deleted_at === null)) {
      const params = { user_id: user.id };
      const connected = await all(job.client, 'listUserConnectedAccounts', params).catch((err) => (isNotFound(err) ? [] : Promise.reject(err)));
      job.rows.ensureProviders([...new Set(connected.map((c) => c.provider_id))], at());
      job.rows.connectedAccounts(tenantId, anonymizer ? connected.map((c) => fakeConnectedAccount(anonymizer, c)) : connected);
      const accounts: OnlineConferenceAccount[] = await all(job.client, 'listUserConferenceAccounts', params).catch((err) => (isNotFound(err) ? [] : Promise.reject(err)));
      const known = job.rows.existing('connected_accounts', accounts.flatMap((a) => (a.connected_account_id === null ? [] : [a.connected_account_id])));
      const kept = accounts.map((a) => (a.connected_account_id === null || known.has(a.connected_account_id) ? a : (count('dangling_connected_accounts'), { ...a, connected_account_id: null })));
      job.rows.conferenceAccounts(tenantId, anonymizer ? kept.map((a) => fakeConferenceAccount(anonymizer, a)) : kept);
      count('connected_accounts', connected.length);
      count('conference_accounts', accounts.length);
    }
  }

  function writeCustomers(customers: Customer[]): void {
    job.rows.customers(tenantId, anonymizer ? customers.map((c) => fakeCustomer(anonymizer, c)) : customers);
    count('customers', customers.length);
  }

  /** Users and customers that attendees refer to and the mirror lacks, read one by one. */
  async function closeOver(attendees: OnlineConferenceAttendee[]): Promise<void> {
    const ids = (type: 'User' | 'Customer') => [...new Set(attendees.flatMap((a) => (a.attendee_type === type && a.attendee_id !== null ? [a.attendee_id] : [])))];
    const userIds = ids('User');
    const haveUsers = job.rows.existing('users', userIds);
    for (const id of userIds.filter((i) => !haveUsers.has(i))) {
      const user = await job.client.call('getUser', { params: { user_id: id } }).then((r) => r.data, (err) => (isNotFound(err) ? undefined : Promise.reject(err)));
      if (user) await writeUsers([user]);
    }
    const customerIds = ids('Customer');
    const haveCustomers = job.rows.existing('customers', customerIds);
    for (const id of customerIds.filter((i) => !haveCustomers.has(i))) {
      const customer = await job.client.call('getCustomer', { params: { customer_id: id } }).then((r) => r.data, (err) => (isNotFound(err) ? undefined : Promise.reject(err)));
      if (customer) writeCustomers([customer]);
    }
  }

  function writeFiles(recordings: OnlineConferenceRecording[]): void {
    const root = path.resolve(job.mediaDir);
    for (const r of recordings) {
      if (r.status !== 3 || !r.path) continue;
      const file = path.resolve(root, r.path);
      // A path from the source that would leave the media directory gets no file.
      if (!file.startsWith(root + path.sep)) continue;
      const seconds = r.started_at && r.stopped_at ? Math.max(1, (Date.parse(r.stopped_at) - Date.parse(r.started_at)) / 1000) : 1;
      writePrivateFile(file, generateWav({ seconds, sampleRate: seconds > FULL_RATE_SECONDS ? 1000 : 8000, frequency: 220 }));
      count('files');
    }
  }

  async function writeConference(conference: OnlineConference): Promise<void> {
    const live = conference.deleted_at === null;
    const params = { online_conference_id: conference.id };
    const attendees: OnlineConferenceAttendee[] = live ? await all(job.client, 'listConferenceAttendees', params) : [];
    const recordings: OnlineConferenceRecording[] = live ? await all(job.client, 'listConferenceRecordings', params) : [];
    await closeOver(attendees);
    if (!job.rows.existing('conference_accounts', [conference.online_conference_account_id]).size) {
      count('skipped_conferences');
      return;
    }
    const fakeAttendees = anonymizer ? attendees.map((a) => fakeAttendee(anonymizer, a)) : attendees;
    job.rows.conferences(tenantId, [anonymizer ? fakeConference(anonymizer, conference) : conference]);
    job.rows.attendees(fakeAttendees);
    job.rows.recordings(recordings);
    writeFiles(recordings);
    count('conferences');
    count('attendees', attendees.length);
    count('recordings', recordings.length);
  }

  const { since_at: since } = state;
  const { limit_per_kind: limit } = state.settings;
  const pageSize = Math.min(PAGE, limit ?? PAGE);
  const query = (page: number) => ({
    with_trashed: true,
    order_by: 'id',
    order_direction: 'asc',
    page_size: pageSize,
    page_number: page,
    ...(since && { filter_attribute: 'created_at', filter_operator: 'GreaterThanOrEqual', filter_value: since }),
  });
  /** Reads the stage's list from the saved page on, writes each page and saves the progress, then moves to `next`. */
  async function runStage<T>(read: (page: number) => Promise<Page<T>>, write: (rows: T[]) => Promise<void> | void, next: Stage): Promise<void> {
    for (;;) {
      const page = await read(state.page);
      const rows = limit === null ? page.data : page.data.slice(0, Math.max(0, limit - state.taken));
      await write(rows);
      state.taken += rows.length;
      const more = rows.length === page.data.length && page.current_page < page.last_page && (limit === null || state.taken < limit);
      if (more) state.page++;
      else Object.assign(state, { stage: next, page: 1, taken: 0 });
      save();
      if (!more) return;
    }
  }

  const { client } = job;
  if (state.stage === 'users') await runStage((page) => client.call('listUsers', { query: query(page) }), writeUsers, 'customers');
  if (state.stage === 'customers') await runStage((page) => client.call('listCustomers', { query: query(page) }), writeCustomers, 'conferences');
  if (state.stage === 'conferences') {
    await runStage((page) => client.call('listConferences', { query: query(page) }), async (rows) => {
      for (const c of rows) await writeConference(c);
    }, 'done');
  }
  return state;
}
