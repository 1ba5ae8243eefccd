import type { WorkHours } from '../../contract/index.js';

/** Fixed data of the demo set (decisions §8). Times are anchored to a fixed date, not to "now". */
export const DEMO_ANCHOR = Date.UTC(2026, 0, 5, 9, 0, 0); // Monday 5 January 2026, 09:00 UTC
export const DEMO_DOMAIN = 'demo.example.com';
export const DEMO_DEPARTMENTS = ['Engineering', 'Sales', 'Support', 'Marketing'] as const;

export const at = (minutesFromAnchor: number) => new Date(DEMO_ANCHOR + minutesFromAnchor * 60_000).toISOString();

const t = (hour: number, minute = 0) => ({ hour, minute, second: 0 });
const iv = (h1: number, m1: number, h2: number, m2: number) => ({ start: t(h1, m1), end: t(h2, m2) });
const week = (days: Partial<WorkHours>): WorkHours => ({
  sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], ...days,
});
const weekdays = (...intervals: ReturnType<typeof iv>[]) =>
  week({ monday: intervals, tuesday: intervals, wednesday: intervals, thursday: intervals, friday: intervals });

/** Work-hour patterns the demo users rotate through (null = not set). */
export const WORK_PATTERNS: (WorkHours | null)[] = [
  weekdays(iv(9, 0, 17, 0)),
  weekdays(iv(8, 0, 12, 0), iv(13, 0, 17, 0)),
  week({ monday: [iv(10, 0, 14, 0)], wednesday: [iv(10, 0, 14, 0)], friday: [iv(10, 0, 14, 0)] }),
  weekdays(iv(7, 30, 15, 30)),
  week({ sunday: [iv(22, 0, 24, 0)], monday: [iv(0, 0, 6, 0), iv(22, 0, 24, 0)], tuesday: [iv(0, 0, 6, 0)] }),
  week({ saturday: [iv(9, 0, 13, 0)], sunday: [iv(9, 0, 13, 0)] }),
  null,
];

/** The demo's 25 users: [first, last]. Indexes 22-24 are soft-deleted; every fifth is inactive. */
export const DEMO_USERS: readonly [string, string][] = [
  ['Ada', 'Lovelace'], ['Alan', 'Turing'], ['Grace', 'Hopper'], ['Linus', 'Torvalds'], ['Margaret', 'Hamilton'],
  ['Dennis', 'Ritchie'], ['Barbara', 'Liskov'], ['Ken', 'Thompson'], ['Frances', 'Allen'], ['Edsger', 'Dijkstra'],
  ['Radia', 'Perlman'], ['Tim', 'Berners-Lee'], ['Sophie', 'Wilson'], ['Guido', 'van Rossum'], ['Hedy', 'Lamarr'],
  ['John', 'McCarthy'], ['Katherine', 'Johnson'], ['Donald', 'Knuth'], ['Joan', 'Clarke'], ['Niklaus', 'Wirth'],
  ['Lynn', 'Conway'], ['Bjarne', 'Stroustrup'], ['Karen', 'Sparck Jones'], ['Yukihiro', 'Matsumoto'], ['Mary', 'Keller'],
];
export const DELETED_USERS = new Set([22, 23, 24]);

/** The demo's 30 customers: [first, middle, last]. Indexes 27-29 are soft-deleted. */
export const DEMO_CUSTOMERS: readonly [string, string | null, string][] = [
  ['Olivia', null, 'Brown'], ['Liam', 'James', 'Smith'], ['Emma', null, 'Müller'], ['Noah', null, 'Schmidt'],
  ['Amelia', 'Rose', 'Jones'], ['Oliver', null, 'Garcia'], ['Mia', null, 'Dubois'], ['Lucas', null, 'Martin'],
  ['Hana', null, 'Sato'], ['Haruto', null, 'Suzuki'], ['Chloe', null, 'Tremblay'], ['Ethan', null, 'Roy'],
  ['Beatriz', null, 'Silva'], ['Gabriel', 'Luiz', 'Santos'], ['Charlotte', null, 'Wilson'], ['Jack', null, 'Taylor'],
  ['Sofia', null, 'Rossi'], ['Mateo', null, 'Lopez'], ['Isla', null, 'Campbell'], ['Leo', null, 'Fischer'],
  ['Aisha', null, 'Bello'], ['Kwame', null, 'Mensah'], ['Priya', null, 'Sharma'], ['Arjun', null, 'Patel'],
  ['Zoe', null, 'Nguyen'], ['Max', null, 'Weber'], ['Ella', null, 'Kowalski'], ['Finn', null, 'Jensen'],
  ['Nora', null, 'Berg'], ['Omar', null, 'Haddad'],
];
export const DELETED_CUSTOMERS = new Set([27, 28, 29]);
