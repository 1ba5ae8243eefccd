import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatWorkHours, parseWorkHoursText } from '../../src/cli/work-hours.js';
import { type Fake, JSON_HEADERS, ORIGIN, withProfile } from './helpers.js';

const P = '/api/public/v2.0';
const t = (hour: number, minute = 0) => ({ hour, minute, second: 0 });
const span = (a: number, b: number) => ({ start: t(a), end: t(b) });
const EMPTY = { sunday: [], monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [] };
const OFFICE = { ...EMPTY, monday: [span(9, 17)], tuesday: [span(9, 17)], wednesday: [span(9, 17)], thursday: [span(9, 17)], friday: [span(9, 17)] };

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());

describe('the text form', () => {
  it('days and spans; missing days have no hours; every day is present', () => {
    expect(parseWorkHoursText('mon-fri 09:00-17:00')).toEqual(OFFICE);
    expect(parseWorkHoursText('Monday 08:00-12:00,13:00-17:30; sat,sun 10:00-14:00')).toEqual({
      ...EMPTY,
      monday: [span(8, 12), { start: t(13), end: t(17, 30) }],
      saturday: [span(10, 14)],
      sunday: [span(10, 14)],
    });
    expect(parseWorkHoursText('fri-mon 22:00-24:00')).toMatchObject({ friday: [span(22, 24)], saturday: [span(22, 24)], sunday: [span(22, 24)], monday: [span(22, 24)], tuesday: [] });
    expect(parseWorkHoursText('none')).toEqual(EMPTY);
  });

  it.each(['mon-fri', 'moon 09:00-17:00', 'mon 9-17', 'mon 09:00'])('%s is exit 2 with an example', (text) => {
    expect(() => parseWorkHoursText(text)).toThrow(/--work-hours/);
  });
});

describe('the compact form in tables', () => {
  it('runs of equal days share one entry, Monday first; empty days are left out', () => {
    expect(formatWorkHours(OFFICE)).toBe('Mon–Fri 09:00–17:00');
    expect(formatWorkHours({ ...OFFICE, wednesday: [], saturday: [span(10, 14)] })).toBe('Mon–Tue 09:00–17:00; Thu–Fri 09:00–17:00; Sat 10:00–14:00');
    expect(formatWorkHours(EMPTY)).toBe('none');
    expect(formatWorkHours('x')).toBeUndefined();
  });
});

describe('users create and update take --work-hours as text, @FILE or JSON, and send all seven days', () => {
  const FLAGS = ['--first-name', 'G', '--last-name', 'H', '--email', 'g@example.com', '--timezone', 'UTC', '--role', 'Member'];
  const stubCreate = () => {
    const sent: unknown[] = [];
    f.agent
      .get(ORIGIN)
      .intercept({ path: `${P}/users`, method: 'POST' })
      .reply((req) => {
        sent.push(JSON.parse(req.body));
        return { statusCode: 200, data: { message: 'OK', data: { id: 1 } }, responseOptions: JSON_HEADERS };
      });
    return sent;
  };

  it('text', async () => {
    f = await withProfile();
    const sent = stubCreate();
    expect(await f.run(['users', 'create', ...FLAGS, '--work-hours', 'mon-fri 09:00-17:00', '-o', 'json'])).toBe(0);
    expect((sent[0] as { work_hours: unknown }).work_hours).toEqual(OFFICE);
  });

  it('@FILE holding the text form; JSON with days left out', async () => {
    f = await withProfile();
    const file = join(f.configDir, 'hours.txt');
    writeFileSync(file, 'mon-fri 09:00-17:00\n');
    const sent = stubCreate();
    expect(await f.run(['users', 'create', ...FLAGS, '--work-hours', `@${file}`, '-o', 'json'])).toBe(0);
    expect((sent[0] as { work_hours: unknown }).work_hours).toEqual(OFFICE);
    const g = await withProfile();
    f = g;
    const again = stubCreate();
    expect(await g.run(['users', 'create', ...FLAGS, '--work-hours', JSON.stringify({ monday: [span(9, 17)] }), '-o', 'json'])).toBe(0);
    expect((again[0] as { work_hours: unknown }).work_hours).toEqual({ ...EMPTY, monday: [span(9, 17)] });
  });

  it('users get as a table shows the hours on one line', async () => {
    f = await withProfile({ tty: true });
    const user = { id: 1, name: 'Ada L', email: 'ada@example.com', timezone: 'UTC', work_hours: OFFICE };
    f.agent.get(ORIGIN).intercept({ path: `${P}/users/1` }).reply(200, { message: 'OK', data: user }, JSON_HEADERS);
    expect(await f.run(['users', 'get', '1'])).toBe(0);
    expect(f.stdout()).toMatch(/│ work_hours\s+│ Mon–Fri 09:00–17:00\s+│/);
    expect(f.stdout().split('\n').length).toBeLessThan(15);
  });
});
