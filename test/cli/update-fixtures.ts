/** Complete resources as the API answers them, for the update tests (every writable field set). */
const t = (hour: number) => ({ hour, minute: 0, second: 0 });
export const NINE_TO_FIVE = { start: t(9), end: t(17) };
export const WORK_HOURS = { sunday: [], monday: [NINE_TO_FIVE], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };

export const USER = {
  id: 1,
  first_name: 'Ada',
  last_name: 'Lovelace',
  name: 'Ada Lovelace',
  email: 'ada@acme.com',
  department_id: 2,
  department_name: 'R&D',
  timezone: 'Europe/London',
  work_hours: WORK_HOURS,
  role: 'Admin',
  status: 1,
  created_at: '2026-01-01T00:00:00.000Z',
};

/** The body a user update sends when nothing but `changes` differs from `USER` (in the flags' order). */
export const userBody = (changes: Record<string, unknown> = {}) => ({
  first_name: USER.first_name,
  last_name: USER.last_name,
  email: USER.email,
  department_id: USER.department_id,
  timezone: USER.timezone,
  role: USER.role,
  work_hours: USER.work_hours,
  ...changes,
});

export const ADDRESS = { line_1: null, line_2: null, city: 'London', region: null, region_code: null, country: 'UK', country_code: null, postal_code: null };
export const CUSTOMER = { id: 7, first_name: 'Ada', middle_name: null, last_name: 'Lovelace', email: 'ada@example.com', contact_number: null, address: ADDRESS, name: 'Ada Lovelace', created_at: '2026-01-01T00:00:00.000Z' };

/** The body a customer update sends when nothing but `changes` differs from `CUSTOMER`. */
export const customerBody = (changes: Record<string, unknown> = {}) => ({
  first_name: CUSTOMER.first_name,
  middle_name: CUSTOMER.middle_name,
  last_name: CUSTOMER.last_name,
  email: CUSTOMER.email,
  contact_number: CUSTOMER.contact_number,
  address: CUSTOMER.address,
  ...changes,
});

export const CONFERENCE = { id: 3, title: 'Weekly sync', is_public: false, public_id: 'weekly-sync', online_conference_account_id: 1, started_at: null, is_occurred: false };
