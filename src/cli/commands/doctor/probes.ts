/**
 * One harmless request per permission, telling `401 Access denied.` (not granted) from any
 * other answer (granted: the server checks permissions before input and existence).
 *
 * Nothing is ever changed: reads are one-item lists or ids that do not exist; writes carry a
 * body that fails validation (`POST /customers {}` lacks required fields) and/or target an id
 * that does not exist (the largest valid id), so they answer 400 or 404, never 200; deletes
 * target such an id and answer 404. A permission only a valid body can reveal is listed in
 * `UNPROBED` instead.
 */

import type { HttpMethod } from '../../../contract/operations-meta.js';

/** An id no resource has: the largest the route accepts (0 would be a route-level 404, before the key is checked). */
export const NO_ID = '9007199254740991';

export interface Probe {
  permission: string;
  method: HttpMethod;
  path: string;
  body?: unknown;
  /** Another permission the operation needs as well: its denial makes this one unknown. */
  alsoNeeds?: string;
}

export const PROBES: readonly Probe[] = [
  { permission: 'users.read.*', method: 'GET', path: '/users?page_size=1' },
  { permission: 'users.create.*', method: 'POST', path: '/users', body: {} },
  { permission: 'users.update.*', method: 'PATCH', path: `/users/${NO_ID}`, body: { email: 'not-an-email' } },
  { permission: 'customers.read.*', method: 'GET', path: '/customers?page_size=1' },
  { permission: 'customers.create.*', method: 'POST', path: '/customers', body: {} },
  { permission: 'customers.update.*', method: 'PATCH', path: `/customers/${NO_ID}`, body: { email: 'not-an-email' } },
  { permission: 'online_conferences.read.*', method: 'GET', path: `/online_conferences/${NO_ID}` },
  { permission: 'online_conferences.create.*', method: 'POST', path: '/online_conferences', body: {} },
  { permission: 'online_conferences.update.*', method: 'PATCH', path: `/online_conferences/${NO_ID}`, body: { title: 42 } },
  { permission: 'online_conferences.delete.*', method: 'DELETE', path: `/online_conferences/${NO_ID}` },
  {
    permission: 'online_conference_recordings.read.*',
    method: 'GET',
    path: `/online_conferences/${NO_ID}/recordings`,
    alsoNeeds: 'online_conferences.read.*',
  },
  { permission: 'online_conference_accounts.read.*', method: 'GET', path: `/users/${NO_ID}/online_conference_accounts`, alsoNeeds: 'users.read.*' },
  { permission: 'connected_accounts.read.*', method: 'GET', path: `/users/${NO_ID}/connected_accounts`, alsoNeeds: 'users.read.*' },
  { permission: 'events.read.*', method: 'GET', path: `/calendars/${NO_ID}/events/${NO_ID}` },
];

/**
 * Permissions checked only after a body passes validation (decisions §11): no request that
 * changes nothing can reveal them, so doctor names them without probing.
 */
export const UNPROBED: readonly { permission: string; detail: string }[] = [
  { permission: 'users.lock.*', detail: 'not probed: only a valid user create with activate would tell, and it would create a user' },
];

/** `skip`: a permission doctor does not probe (`UNPROBED`). */
export type Status = 'ok' | 'warn' | 'fail' | 'skip';

/** What a probe's answer says about its permission (`granted` tells whether `alsoNeeds` was). */
export function judge(probe: Probe, status: number, text: string, granted: (p: string) => boolean | undefined): { status: Status; detail: string } {
  if (status === 401 && text.trim() === 'Access denied.') {
    if (probe.alsoNeeds && granted(probe.alsoNeeds) !== true) return { status: 'warn', detail: `unknown: the probe needs ${probe.alsoNeeds} too` };
    return { status: 'fail', detail: 'denied (401 Access denied.)' };
  }
  if (status === 429 || status >= 500 || status === 401) return { status: 'warn', detail: `unknown (answered ${status})` };
  return { status: 'ok', detail: `granted (answered ${status})` };
}
