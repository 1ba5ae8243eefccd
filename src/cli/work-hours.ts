/**
 * Work hours as people type and read them: `mon-fri 09:00-17:00` in, `Mon–Fri 09:00–17:00` out.
 * The API's form (decisions §7) is an object of all seven days, each an array of intervals
 * `{start: {hour, minute, second}, end: …}`; a day left out here means no hours that day, filled
 * in locally so the body sent is always complete. No I/O.
 *
 * The text form: clauses separated by `;`, each `DAYS TIMES`. DAYS is a day (`mon` or `monday`),
 * a range (`mon-fri`) or a comma list of those (`mon,wed,fri-sun`); TIMES is one or more
 * `HH:MM-HH:MM` (seconds allowed, `24:00` as an end), comma-separated. `none` is a week without
 * hours. JSON (an object, as the API writes it) is accepted too.
 */
import { UsageError } from './errors.js';

export const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
type Day = (typeof DAYS)[number];
interface Time {
  hour: number;
  minute: number;
  second: number;
}
interface Interval {
  start: Time;
  end: Time;
}
type Week = Record<string, unknown>;

/** Monday first, as a week reads. */
const ORDER: readonly Day[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const SHORT = (day: Day) => `${day[0].toUpperCase()}${day.slice(1, 3)}`;

const EXAMPLE = "e.g. --work-hours 'mon-fri 09:00-17:00' or 'mon-thu 08:00-12:00,13:00-17:00; fri 08:00-12:00', or JSON";

function dayOf(word: string, text: string): Day {
  const w = word.toLowerCase();
  const day = DAYS.find((d) => d === w || (w.length >= 3 && d.startsWith(w)));
  if (!day) throw new UsageError(`--work-hours: '${word}' is not a day in '${text}'`, EXAMPLE);
  return day;
}

/** `mon-fri` (wrapping past Sunday: `fri-mon`) or one day → the days, Monday first. */
function dayRange(part: string, text: string): Day[] {
  const [from, to, extra] = part.split('-');
  if (extra !== undefined) throw new UsageError(`--work-hours: cannot read the days '${part}' in '${text}'`, EXAMPLE);
  const a = ORDER.indexOf(dayOf(from, text));
  if (to === undefined) return [ORDER[a]];
  const b = ORDER.indexOf(dayOf(to, text));
  return Array.from({ length: ((b - a + 7) % 7) + 1 }, (_, i) => ORDER[(a + i) % 7]);
}

function timeOf(word: string, text: string): Time {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(word);
  if (!m) throw new UsageError(`--work-hours: '${word}' is not a time (HH:MM) in '${text}'`, EXAMPLE);
  return { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0) };
}

function intervalOf(part: string, text: string): Interval {
  const [start, end, extra] = part.split('-');
  if (end === undefined || extra !== undefined) throw new UsageError(`--work-hours: '${part}' is not a span HH:MM-HH:MM in '${text}'`, EXAMPLE);
  return { start: timeOf(start.trim(), text), end: timeOf(end.trim(), text) };
}

/** The text form → all seven days (see the module comment); exit 2 naming what cannot be read. */
export function parseWorkHoursText(text: string): Week {
  const week: Record<Day, Interval[]> = Object.fromEntries(DAYS.map((d) => [d, []])) as unknown as Record<Day, Interval[]>;
  if (/^\s*none\s*$/i.test(text)) return week;
  const clauses = text.split(/[;\n]/).map((c) => c.trim()).filter(Boolean);
  if (!clauses.length) throw new UsageError('--work-hours is empty', EXAMPLE);
  for (const clause of clauses) {
    const m = /^([A-Za-z,\s-]+?)\s+(\d.*)$/.exec(clause);
    if (!m) throw new UsageError(`--work-hours: cannot read '${clause}' (days, then times)`, EXAMPLE);
    const days = m[1].split(',').map((p) => p.trim()).filter(Boolean).flatMap((p) => dayRange(p, clause));
    const intervals = m[2].split(',').map((p) => intervalOf(p.trim(), clause));
    for (const day of days) week[day].push(...intervals.map((i) => structuredClone(i)));
  }
  return week;
}

/** A JSON object of work hours with the days it leaves out as no hours (others kept as given, for the contract's check). */
export function completeWeek(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return { ...Object.fromEntries(DAYS.map((d) => [d, []])), ...(value as Week) };
}

/** `--work-hours` (or a file's text): JSON when it starts with `{`, else the text form; missing days become no hours. */
export function parseWorkHours(text: string, parseJson: (text: string) => unknown): unknown {
  return text.trimStart().startsWith('{') ? completeWeek(parseJson(text)) : parseWorkHoursText(text);
}

const isTime = (t: unknown): t is Time =>
  t !== null && typeof t === 'object' && ['hour', 'minute', 'second'].every((k) => Number.isInteger((t as Record<string, unknown>)[k]));
const isIntervals = (v: unknown): v is Interval[] => Array.isArray(v) && v.every((i: unknown) => i !== null && typeof i === 'object' && isTime((i as Interval).start) && isTime((i as Interval).end));

const two = (n: number) => String(n).padStart(2, '0');
const clock = (t: Time) => `${two(t.hour)}:${two(t.minute)}${t.second ? `:${two(t.second)}` : ''}`;
const span = (i: Interval) => `${clock(i.start)}–${clock(i.end)}`;

/**
 * Work hours in one short line for tables: runs of days (Monday first) with the same hours share
 * one entry, days without hours are left out (`Mon–Fri 09:00–17:00; Sat 10:00–14:00`), a week
 * without any is `none`. Anything not shaped like work hours is answered undefined.
 */
export function formatWorkHours(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const week = value as Week;
  if (!ORDER.every((d) => week[d] === undefined || isIntervals(week[d]))) return undefined;
  const text = (d: Day) => ((week[d] as Interval[] | undefined) ?? []).map(span).join(', ');
  const groups: { first: Day; last: Day; hours: string }[] = [];
  for (const day of ORDER) {
    const hours = text(day);
    const open = groups[groups.length - 1];
    if (open && open.hours === hours && ORDER.indexOf(open.last) === ORDER.indexOf(day) - 1) open.last = day;
    else groups.push({ first: day, last: day, hours });
  }
  const parts = groups.filter((g) => g.hours).map((g) => `${g.first === g.last ? SHORT(g.first) : `${SHORT(g.first)}–${SHORT(g.last)}`} ${g.hours}`);
  return parts.length ? parts.join('; ') : 'none';
}
