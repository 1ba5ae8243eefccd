/** The resources of a mirror with their personal data replaced by an `Anonymizer` (see anonymize.ts for the rules). */
import type { ConnectedAccount, Customer, OnlineConference, OnlineConferenceAccount, OnlineConferenceAttendee, User } from '../../contract/resources.js';
import type { Anonymizer } from './anonymize.js';

export function fakeUser(a: Anonymizer, u: User): User {
  const first_name = a.name(u.first_name);
  const last_name = a.name(u.last_name);
  return { ...u, first_name, last_name, name: a.name(u.name), email: a.email(u.email), avatar_url: a.text(u.avatar_url) };
}

export function fakeCustomer(a: Anonymizer, c: Customer): Customer {
  const address = c.address && { ...c.address, line_1: a.shape(c.address.line_1), line_2: a.shape(c.address.line_2), postal_code: a.shape(c.address.postal_code) };
  return {
    ...c,
    first_name: a.name(c.first_name),
    middle_name: a.name(c.middle_name),
    last_name: a.name(c.last_name),
    name: a.name(c.name),
    email: a.email(c.email),
    contact_number: a.phone(c.contact_number),
    address,
  };
}

export function fakeAttendee(a: Anonymizer, x: OnlineConferenceAttendee): OnlineConferenceAttendee {
  return { ...x, name: a.name(x.name), email: a.email(x.email) };
}

/** A provider uid that is an e-mail address is faked as one; other uids identify no one. */
export function fakeConnectedAccount(a: Anonymizer, x: ConnectedAccount): ConnectedAccount {
  return { ...x, provider_email: a.email(x.provider_email), provider_uid: x.provider_uid.includes('@') ? a.email(x.provider_uid) : a.text(x.provider_uid) };
}

export function fakeConferenceAccount(a: Anonymizer, x: OnlineConferenceAccount): OnlineConferenceAccount {
  return { ...x, name: a.text(x.name) };
}

export function fakeConference(a: Anonymizer, c: OnlineConference): OnlineConference {
  return { ...c, title: a.text(c.title) };
}
