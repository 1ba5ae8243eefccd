import { afterEach, describe, expect, it } from 'vitest';
import * as events from '../../src/cli/commands/events/index.js';
import { createProgram } from '../../src/cli/main.js';
import { type Fake, fake, JSON_HEADERS, ORIGIN, TEXT_HEADERS, withProfile } from './helpers.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const api = () => f.agent.get(ORIGIN);
const P = '/api/public/v2.0';
const EVENT = {
  id: 11,
  calendar_id: 2,
  title: 'Weekly sync',
  start: '2026-02-02T09:00:00.000Z',
  end: '2026-02-02T09:30:00.000Z',
  attendees: [{ email: 'ada@acme.com', name: 'Ada', status: 1, is_organizer: true, customer_id: null, calendar_id: 2 }],
  online_conference: { id: 3, public_id: 'weekly-sync' },
};

describe('events get', () => {
  it('parses both ids', async () => {
    const { ctx } = fake();
    const program = createProgram(ctx);
    const seen: unknown[] = [];
    events.register(program, ctx, { get: async (o) => void seen.push(o) });
    await program.parseAsync(['events', 'get', '2', '11', '-o', 'yaml'], { from: 'user' });
    expect(seen[0]).toMatchObject({ params: { calendar_id: '2', event_id: '11' }, globals: { output: 'yaml' } });
    await expect(program.parseAsync(['events', 'get', '2', 'x'], { from: 'user' })).rejects.toThrow(/event_id must be a positive integer/);
  });

  it('prints the event as JSON, nested attendees and conference included', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/calendars/2/events/11`, method: 'GET' }).reply(200, { message: 'OK', data: EVENT }, JSON_HEADERS);
    expect(await f.run(['events', 'get', '2', '11'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(EVENT);
  });

  it('--fields picks dotted paths', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/calendars/2/events/11`, method: 'GET' }).reply(200, { message: 'OK', data: EVENT }, JSON_HEADERS);
    expect(await f.run(['events', 'get', '2', '11', '--fields', 'title,online_conference.public_id', '-o', 'csv'])).toBe(0);
    expect(f.stdout()).toBe('title,online_conference.public_id\nWeekly sync,weekly-sync\n');
  });

  it('an event of another calendar → exit 4', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/calendars/9/events/11`, method: 'GET' }).reply(404, 'Resource object does not exist.', TEXT_HEADERS);
    expect(await f.run(['events', 'get', '9', '11'])).toBe(4);
    expect(f.stderr()).toContain('error: GET /calendars/9/events/11 failed (404): Resource object does not exist.');
  });

  it('--help shows an example', async () => {
    f = fake();
    expect(await f.run(['events', 'get', '--help'])).toBe(0);
    expect(f.stdout()).toContain('Example:\n  $ confctl events get 2 11');
  });
});
