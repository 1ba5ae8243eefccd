/**
 * The tables of confctl's data, on both stores, parents before children (a table comes after every
 * table its foreign keys name). PostgreSQL's change counters have a trigger on each; snapshots hold
 * exactly these.
 */
export const DATA_TABLES = [
  'tenants',
  'tenant_domains',
  'access_keys',
  'roles',
  'departments',
  'users',
  'customers',
  'providers',
  'connected_accounts',
  'conference_accounts',
  'calendars',
  'events',
  'event_attendees',
  'conferences',
  'conference_attendees',
  'recordings',
  'invitations',
  'webhook_destinations',
  'webhook_deliveries',
  'webhook_attempts',
  'meeting_links',
] as const;
