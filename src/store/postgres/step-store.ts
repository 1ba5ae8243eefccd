import type { StepStore } from '../steps.js';
import { pgAttendees, pgCalendars, pgConferenceAccounts, pgConferences, pgConnectedAccounts, pgEvents, pgProviders, pgRecordings } from './conferences.js';
import { pgCustomers, pgUsers } from './people.js';
import type { Queryable } from './pool.js';
import { pgDepartments, pgInvitations, pgKeys, pgRoles, pgTenants } from './tenancy.js';
import { pgMeetingLinks, pgWebhookOutbox } from './webhooks.js';
import { pgClock } from './clock.js';

/**
 * The repositories that units written as steps use (../steps.ts), every statement on `db`: a pool,
 * or one transaction's client, in which case what a repository would make atomic on its own
 * already is.
 */
export function pgStepStore(db: Queryable): StepStore {
  const within = <T>(work: (tx: Queryable) => Promise<T>) => work(db);
  return {
    tenants: pgTenants(db, within),
    keys: pgKeys(db),
    users: pgUsers(db),
    customers: pgCustomers(db),
    departments: pgDepartments(db),
    roles: pgRoles(db),
    providers: pgProviders(db),
    connectedAccounts: pgConnectedAccounts(db),
    conferenceAccounts: pgConferenceAccounts(db),
    calendars: pgCalendars(db),
    events: pgEvents(db, within),
    conferences: pgConferences(db),
    attendees: pgAttendees(db),
    recordings: pgRecordings(db),
    meetingLinks: pgMeetingLinks(db),
    webhookOutbox: pgWebhookOutbox(db),
    clock: pgClock(db),
    invitations: pgInvitations(db),
  };
}
