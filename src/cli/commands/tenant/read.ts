/**
 * Reads the tenant for `export`, `plan` and `apply`: every page of users (the departments and
 * roles they show are the ones `plan` knows: the API lists neither), customers and conferences
 * that have not ended, streamed 100 a page; each conference's attendees; and the conference
 * accounts that name hosts. A progress line on stderr when it is a terminal.
 */
import type { ApiClient } from '../../../client/client.js';
import type { ItemOf, ListOperationId } from '../../../client/types.js';
import type { OnlineConference, OnlineConferenceAttendee } from '../../../contract/resources.js';
import type { Account, Kind, Snapshot, TenantConference, TenantCustomer, TenantUser } from '../../tenant/model.js';
import { foldKey } from '../../tenant/values.js';
import type { CliContext } from '../../context.js';
import { rowProgress } from '../../progress/rows.js';

const PAGE = 100;

export interface ReadOptions {
  kinds: readonly Kind[];
  /** Conferences to read attendees of (folded public ids); all when absent. */
  conferences?: ReadonlySet<string>;
  /** Users (folded e-mails) whose conference accounts are needed: the hosts the files name. */
  hosts?: ReadonlySet<string>;
}

async function readAll<K extends ListOperationId>(client: ApiClient, id: K, input: Parameters<ApiClient['paginate']>[1], onRows: (n: number, total: number) => void): Promise<ItemOf<K>[]> {
  const rows: ItemOf<K>[] = [];
  for await (const page of client.paginate(id, input)) {
    rows.push(...page.data);
    onRows(page.data.length, page.total);
  }
  return rows;
}

/** Reads what `options.kinds` need (conferences need the users, to name hosts). */
export async function readTenant(client: ApiClient, options: ReadOptions, ctx: CliContext): Promise<Snapshot> {
  const progress = ctx.streams.stderrIsTTY ? rowProgress(ctx.streams.stderr, { width: ctx.streams.width, now: () => ctx.now().getTime() }) : undefined;
  let fetched = 0;
  let expected = 0;
  const totals = new Map<string, number>();
  const count = (list: string) => (n: number, total: number) => {
    fetched += n;
    if (!totals.has(list)) expected += total;
    totals.set(list, total);
    progress?.update(fetched, expected);
  };
  try {
    const snapshot: Snapshot = {};
    const needsUsers = options.kinds.includes('users') || options.kinds.includes('conferences');
    if (needsUsers) Object.assign(snapshot, splitUsers(await readAll(client, 'listUsers', { query: { page_size: PAGE } }, count('users'))));
    if (options.kinds.includes('customers')) snapshot.customers = (await readAll(client, 'listCustomers', { query: { page_size: PAGE } }, count('customers'))).map(toCustomer);
    if (options.kinds.includes('conferences')) Object.assign(snapshot, await readConferences(client, snapshot.users ?? [], options, count));
    return snapshot;
  } finally {
    progress?.done();
  }
}

function splitUsers(all: ItemOf<'listUsers'>[]): Pick<Snapshot, 'users' | 'departments' | 'roles'> {
  const departments = new Map<number, string>();
  const roles = new Set<string>();
  for (const u of all) {
    if (u.department_id !== null && u.department_name !== null) departments.set(u.department_id, u.department_name);
    if (u.role) roles.add(u.role);
  }
  const users: TenantUser[] = all.map((u) => ({ id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name, department_id: u.department_id, department_name: u.department_name, timezone: u.timezone, work_hours: u.work_hours, role: u.role }));
  return { users, departments: [...departments].map(([id, name]) => ({ id, name })), roles: [...roles] };
}

const toCustomer = (c: ItemOf<'listCustomers'>): TenantCustomer => ({
  id: c.id,
  email: c.email,
  first_name: c.first_name,
  middle_name: c.middle_name,
  last_name: c.last_name,
  contact_number: c.contact_number,
  address: c.address,
});

/**
 * Conferences not ended, with attendees and hosts. The host is the user owning the conference's
 * account: always an attendee (the API adds the owner and never removes it), so it is found by
 * reading the accounts of the conference's user attendees until one holds that account.
 */
async function readConferences(client: ApiClient, users: readonly TenantUser[], options: ReadOptions, count: (list: string) => (n: number, total: number) => void): Promise<Pick<Snapshot, 'conferences' | 'accounts'>> {
  const accounts = new Map<number, Account[]>();
  const accountsOf = async (userId: number) => {
    let list = accounts.get(userId);
    if (!list) {
      list = (await readAll(client, 'listUserConferenceAccounts', { params: { user_id: userId }, query: { page_size: PAGE } }, () => undefined)).map((a) => ({ id: a.id, name: a.name }));
      accounts.set(userId, list);
    }
    return list;
  };
  const byId = new Map(users.map((u) => [u.id, u]));
  const byEmail = new Map(users.map((u) => [foldKey(u.email), u]));
  const listed = await readAll(client, 'listConferences', { query: { page_size: PAGE, filter_attribute: 'ended_at', filter_operator: 'IsNull' } }, count('conferences'));
  const conferences: TenantConference[] = [];
  for (const c of listed) {
    if (options.conferences && !options.conferences.has(foldKey(c.public_id))) {
      conferences.push(withAttendees(c, [], null));
      continue;
    }
    const attendees = await readAll(client, 'listConferenceAttendees', { params: { online_conference_id: c.id }, query: { page_size: PAGE } }, () => undefined);
    let host: TenantConference['host'] = null;
    let hostRow: OnlineConferenceAttendee | undefined;
    for (const a of attendees) {
      const user = a.attendee_type === 'User' && a.attendee_id !== null ? byId.get(a.attendee_id) : undefined;
      const account = user && (await accountsOf(user.id)).find((x) => x.id === c.online_conference_account_id);
      if (user && account) {
        host = { user_id: user.id, email: user.email, account: account.name };
        hostRow = a;
        break;
      }
    }
    conferences.push(withAttendees(c, attendees.filter((a) => a !== hostRow), host, hostRow?.id ?? null));
  }
  for (const email of options.hosts ?? []) {
    const user = byEmail.get(email);
    if (user) await accountsOf(user.id);
  }
  return { conferences, accounts };
}

function withAttendees(c: OnlineConference, attendees: OnlineConferenceAttendee[], host: TenantConference['host'], hostAttendeeId: number | null = null): TenantConference {
  return {
    id: c.id,
    public_id: c.public_id,
    title: c.title,
    is_public: c.is_public,
    account_id: c.online_conference_account_id,
    started: c.started_at !== null,
    host,
    host_attendee_id: hostAttendeeId,
    attendees: attendees.map((a) => ({ id: a.id, email: a.email, name: a.name })),
  };
}
