// The list classes of `npm run bench:scale` (issue 21) as request paths, pure: each class names
// the table a write goes to before every cold request, a path per cold request (values varied so
// no cache of an earlier request's total can answer a later one) and the path repeated warm.

const API = '/api/public/v2.0';

/** `path` with the query `params` (undefined ones left out). */
export function listPath(table, params = {}) {
  const query = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  return `${API}/${table}${query ? `?${query}` : ''}`;
}

/** Distinct lower-case substrings of `length` letters (a–z only) of `words`, in first-seen order. */
export function substrings(words, length) {
  const seen = new Set();
  for (const word of words) {
    const w = word.toLowerCase();
    for (let i = 0; i + length <= w.length; i++) {
      const s = w.slice(i, i + length);
      if (/^[a-z]+$/.test(s)) seen.add(s);
    }
  }
  return [...seen];
}

/** `count` values taken in turn from `values` (repeating only once all were used). */
export function cycle(values, count) {
  if (values.length === 0) throw new Error('no values to cycle through');
  return Array.from({ length: count }, (_, i) => values[i % values.length]);
}

/** The ISO instant `minutes` after the seeder's first stamp (2024-01-01, one user or customer a minute). */
export const seedInstant = (minutes) => new Date(Date.UTC(2024, 0, 1) + minutes * 60_000).toISOString();

/**
 * The classes for a data set of `users` and `customers` rows (their live totals `liveUsers` and
 * `liveCustomers` give the last page) with `samples` cold requests each. `names` holds the
 * seeder's value lists (FIRST_NAMES, LAST_NAMES, TIMEZONES, PLACES, STREETS, BULK_DEPARTMENTS),
 * `roles` the tenant's roles, `departmentIds` its department ids, `sampled` stored values read
 * from the data set ({ userEmails, customerEmails, contactNumbers }). A class: { name, table,
 * goal ('list' or 'short': Contains of 1–2 characters), cold: path[], warm: path }.
 */
export function listClasses({ users, customers, liveUsers, liveCustomers, samples, names, roles, departmentIds, sampled }) {
  const classes = [];
  const add = (name, table, cold, goal = 'list') => classes.push({ name, table, goal, cold, warm: cold[0] });
  const same = (table, params) => cycle([listPath(table, params)], samples);
  const varied = (table, values, params) => cycle(values, samples).map((v) => listPath(table, params(v)));
  const filter = (attribute, operator, value) => ({ filter_attribute: attribute, filter_operator: operator, filter_value: value });
  const spread = (count, span) => Array.from({ length: count }, (_, i) => Math.floor(((i * 7919) % count) * (span / count)) + 1);

  for (const [table, live] of [['users', liveUsers], ['customers', liveCustomers]]) {
    const last = Math.max(1, Math.ceil(live / 15));
    add(`${table}: first page`, table, same(table, {}));
    add(`${table}: middle page (${Math.ceil(last / 2).toLocaleString('en')})`, table, same(table, { page_number: Math.ceil(last / 2) }));
    add(`${table}: last page (${last.toLocaleString('en')})`, table, same(table, { page_number: last }));
    add(`${table}: \`with_trashed\`, first page`, table, same(table, { with_trashed: 'true' }));
    add(`${table}: \`with_trashed\`, middle page`, table, same(table, { with_trashed: 'true', page_number: Math.ceil(last / 2) }));
  }

  const lower = (list) => list.map((s) => s.toLowerCase());
  // Equal on each indexed attribute: values that exist, varied.
  add('users: `first_name` Equal', 'users', varied('users', names.FIRST_NAMES, (v) => filter('first_name', 'Equal', v)));
  add('users: `last_name` Equal', 'users', varied('users', names.LAST_NAMES, (v) => filter('last_name', 'Equal', v)));
  add('users: `email` Equal', 'users', varied('users', sampled.userEmails, (v) => filter('email', 'Equal', v)));
  add('users: `timezone` Equal', 'users', varied('users', names.TIMEZONES, (v) => filter('timezone', 'Equal', v)));
  add('users: `role` Equal', 'users', varied('users', roles, (v) => filter('role', 'Equal', v)));
  add('users: `status` Equal', 'users', varied('users', [0, 1], (v) => filter('status', 'Equal', v)));
  add('users: `department_id` Equal', 'users', varied('users', departmentIds, (v) => filter('department_id', 'Equal', v)));
  add('users: `department` Equal (the name)', 'users', varied('users', names.BULK_DEPARTMENTS, (v) => filter('department', 'Equal', v)));
  add('users: `created_at` Equal', 'users', varied('users', spread(samples, users), (n) => filter('created_at', 'Equal', seedInstant(n))));
  add('customers: `first_name` Equal', 'customers', varied('customers', names.FIRST_NAMES, (v) => filter('first_name', 'Equal', v)));
  add('customers: `middle_name` Equal', 'customers', varied('customers', [...names.FIRST_NAMES].reverse(), (v) => filter('middle_name', 'Equal', v)));
  add('customers: `last_name` Equal', 'customers', varied('customers', names.LAST_NAMES, (v) => filter('last_name', 'Equal', v)));
  add('customers: `email` Equal', 'customers', varied('customers', sampled.customerEmails, (v) => filter('email', 'Equal', v)));
  add('customers: `contact_number` Equal', 'customers', varied('customers', sampled.contactNumbers, (v) => filter('contact_number', 'Equal', v)));
  add('customers: `created_at` Equal', 'customers', varied('customers', spread(samples, customers), (n) => filter('created_at', 'Equal', seedInstant(n))));

  // Contains: 3 or more characters in many rows and in few, then 1–2 characters.
  add('users: `last_name` Contains 3 letters (many rows)', 'users', varied('users', substrings(names.LAST_NAMES, 3), (v) => filter('last_name', 'Contains', v)));
  add('users: `email` Contains `.N@` (few rows)', 'users', varied('users', spread(samples, users), (n) => filter('email', 'Contains', `.${n}@`)));
  add('users: `first_name` Contains 3 letters (many rows)', 'users', varied('users', substrings(names.FIRST_NAMES, 3), (v) => filter('first_name', 'Contains', v)));
  add('users: `last_name` Contains 1–2 letters', 'users', varied('users', [...substrings(names.LAST_NAMES, 2), ...substrings(names.LAST_NAMES, 1)], (v) => filter('last_name', 'Contains', v)), 'short');
  add('customers: `email` Contains 3 letters (many rows)', 'customers', varied('customers', substrings(names.LAST_NAMES, 3).reverse(), (v) => filter('email', 'Contains', v)));
  add('customers: `email` Contains `.N@` (few rows)', 'customers', varied('customers', spread(samples, customers), (n) => filter('email', 'Contains', `.${n}@`)));
  add('customers: `first_name` Contains 1–2 letters', 'customers', varied('customers', [...substrings(names.FIRST_NAMES, 2), ...substrings(names.FIRST_NAMES, 1)], (v) => filter('first_name', 'Contains', v)), 'short');
  const places = names.PLACES.flatMap((p) => [p.city, p.country]);
  add('customers: `address` Contains a street or city (many rows)', 'customers', varied('customers', [...new Set([...lower(names.STREETS), ...lower(places)])], (v) => filter('address', 'Contains', v)));
  add('customers: `address` Contains a house and street (few rows)', 'customers', varied('customers', spread(samples, 300).map((n, i) => `${n} ${names.STREETS[i % names.STREETS.length]}`), (v) => filter('address', 'Contains', v)));
  add('customers: `city_country` Contains', 'customers', varied('customers', [...new Set([...places, ...names.PLACES.map((p) => `${p.city}, ${p.country}`)])], (v) => filter('city_country', 'Contains', v)));

  // Dates: GreaterThan and LessThan at instants spread over the rows' stamps.
  for (const [table, count] of [['users', users], ['customers', customers]]) {
    add(`${table}: \`created_at\` GreaterThan`, table, varied(table, spread(samples, count), (n) => filter('created_at', 'GreaterThan', seedInstant(n))));
    add(`${table}: \`created_at\` LessThan`, table, varied(table, spread(samples, count), (n) => filter('created_at', 'LessThan', seedInstant(n))));
    add(`${table}: \`updated_at\` GreaterThan`, table, varied(table, spread(samples, count), (n) => filter('updated_at', 'GreaterThan', seedInstant(n))));
  }

  // Order by each order attribute, first page and page 1,000, alternating the direction.
  const orders = {
    users: ['id', 'first_name', 'last_name', 'email', 'status', 'timezone', 'role', 'created_at', 'updated_at', 'deleted_at'],
    customers: ['id', 'first_name', 'middle_name', 'last_name', 'email', 'contact_number', 'address', 'city_country', 'created_at', 'updated_at', 'deleted_at'],
  };
  for (const [table, attributes] of Object.entries(orders)) {
    for (const attribute of attributes) {
      for (const page of [1, 1000]) {
        const cold = Array.from({ length: samples }, (_, i) => listPath(table, { order_by: attribute, order_direction: i % 2 ? 'desc' : 'asc', page_number: page === 1 ? undefined : page }));
        add(`${table}: order by \`${attribute}\`, page ${page.toLocaleString('en')}`, table, cold);
      }
    }
  }
  return classes;
}

/** The cold requests of the head-of-line test's noisy clients: `last_name` Contains of 3 letters, varied. */
export function noisyPaths(names, count) {
  return cycle(substrings(names.LAST_NAMES, 3), count).map((v) => listPath('users', { filter_attribute: 'last_name', filter_operator: 'Contains', filter_value: v }));
}

/** Whether a class's figures meet the issue's goals: cold p99 ≤ 100 ms (≤ 500 ms for 'short'), warm p99 ≤ 20 ms. */
export function meetsGoal(goal, cold, warm) {
  return cold.p99 <= (goal === 'short' ? 500 : 100) && warm.p99 <= 20;
}
