import { afterEach, describe, expect, it } from 'vitest';
import { type Fake, JSON_HEADERS, ORIGIN, page, TEXT_HEADERS, withProfile } from './helpers.js';

/**
 * `confctl wait` in-process against the scripted server, on a clock that moves only when the
 * command sleeps: the checks, sleeps, output and exit codes are exact and no test waits.
 */
let f: Fake;
let sleeps: number[];
afterEach(() => f?.agent.assertNoPendingInterceptors());
const api = () => f.agent.get(ORIGIN);
const P = '/api/public/v2.0';
const T0 = Date.parse('2026-01-31T09:30:00.000Z');

const CONF = { id: 3, online_conference_account_id: 1, public_id: 'c3', title: 'Review', is_public: false, backer_event_id: null, is_occurred: false, started_at: null, ended_at: null };
const STARTED = { ...CONF, is_occurred: true, started_at: '2026-01-31T09:31:00.000Z' };
const rec = (id: number, status: number) => ({ id, online_conference_id: 3, status, file_name: `r${id}.wav`, started_at: null, stopped_at: null });

async function setup(opts: { ttyStderr?: boolean } = {}) {
  f = await withProfile();
  let t = T0;
  sleeps = [];
  f.ctx.now = () => new Date(t);
  f.ctx.sleep = async (ms) => {
    sleeps.push(ms);
    t += ms;
  };
  if (opts.ttyStderr) f.ctx.streams = { ...f.ctx.streams, stderrIsTTY: true };
}
const conference = (body: object, times = 1) => api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(200, { message: 'OK', data: body }, JSON_HEADERS).times(times);
const recordings = (rows: object[], times = 1) =>
  api().intercept({ path: `${P}/online_conferences/3/recordings?page_size=100`, method: 'GET' }).reply(200, page(rows), JSON_HEADERS).times(times);

describe('wait conference', () => {
  it('polls every --interval until started, then prints the conference (exit 0)', async () => {
    await setup();
    conference(CONF, 2);
    conference(STARTED);
    expect(await f.run(['wait', 'conference', '3', '--for', 'started', '--interval', '2s'])).toBe(0);
    expect(sleeps).toEqual([2000, 2000]);
    expect(JSON.parse(f.stdout())).toEqual(STARTED);
    expect(f.stderr()).toBe('');
  });

  it('gives up after --max-wait with exit 124, checking once more at the deadline', async () => {
    await setup();
    conference(CONF, 4);
    expect(await f.run(['wait', 'conference', '3', '--for', 'started', '--max-wait', '12s', '--interval', '5'])).toBe(124);
    expect(sleeps).toEqual([5000, 5000, 2000]);
    expect(f.stdout()).toBe('');
    expect(f.stderr()).toContain('error: timed out after 12s waiting for conference 3 to be started: the last check found it not started');
    expect(f.stderr()).toContain('hint: raise --max-wait');
  });

  it('defaults to a 5 s interval and a 10 min maximum: 121 checks', async () => {
    await setup();
    conference(CONF, 121);
    expect(await f.run(['wait', 'conference', '3', '--for', 'ended'])).toBe(124);
    expect(sleeps).toHaveLength(120);
    expect(new Set(sleeps)).toEqual(new Set([5000]));
  });

  it('-o ndjson prints one JSON line per check', async () => {
    await setup();
    conference(CONF);
    conference(STARTED);
    expect(await f.run(['wait', 'conference', '3', '--for', 'started', '-o', 'ndjson'])).toBe(0);
    const lines = f.stdout().trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { check: 1, at: '2026-01-31T09:30:00.000Z', elapsed_ms: 0, condition: 'started', met: false, failed_on: null, resource: CONF },
      { check: 2, at: '2026-01-31T09:30:05.000Z', elapsed_ms: 5000, condition: 'started', met: true, failed_on: null, resource: STARTED },
    ]);
  });

  it('waits for a finished recording, and stops with exit 9 when a --fail-on condition holds', async () => {
    await setup();
    conference(STARTED, 2);
    recordings([rec(7, 1)]);
    recordings([rec(7, 4)]);
    expect(await f.run(['wait', 'conference', '3', '--for', 'recording-ready', '--fail-on', 'recording-failed', '--interval', '1s'])).toBe(9);
    expect(f.stderr()).toContain('error: conference 3 is recording-failed (--fail-on recording-failed)');
    expect(JSON.parse(f.stdout())).toEqual(STARTED);
  });

  it('--fail-on is checked before the awaited condition', async () => {
    await setup();
    conference({ ...STARTED, ended_at: '2026-01-31T10:00:00.000Z' });
    recordings([rec(7, 4), rec(8, 3)]);
    expect(await f.run(['wait', 'conference', '3', '--for', 'ended', '--fail-on', 'recording-failed,started'])).toBe(9);
    expect(f.stderr()).toContain('is recording-failed');
  });

  it('a conference that does not exist is exit 4 at once; with --for deleted, a 404 is the answer', async () => {
    await setup();
    api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(404, 'Resource object does not exist.', TEXT_HEADERS);
    expect(await f.run(['wait', 'conference', '3', '--for', 'started'])).toBe(4);
    expect(sleeps).toEqual([]);

    await setup();
    conference(CONF);
    api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(404, 'Resource object does not exist.', TEXT_HEADERS);
    expect(await f.run(['wait', 'conference', '3', '--for', 'deleted', '-o', 'ndjson'])).toBe(0);
    expect(f.stdout().trim().split('\n').map((l) => JSON.parse(l).resource)).toEqual([CONF, null]);
  });

  it('a 429 that outlasts the client retries doubles the interval while it lasts, and the wait goes on', async () => {
    await setup();
    const busy = () => api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(429, 'Too many requests.', { headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' } }).times(5);
    busy();
    busy();
    conference(CONF);
    conference(STARTED);
    expect(await f.run(['wait', 'conference', '3', '--for', 'started', '--interval', '3s', '-o', 'ndjson'])).toBe(0);
    // The client's own four retry sleeps do not go through the wait's sleep; the wait's do.
    expect(sleeps).toEqual([6000, 12000, 3000]);
    const lines = f.stdout().trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.rate_limited ?? false, l.met])).toEqual([[true, false], [true, false], [false, false], [false, true]]);
  });

  it('shows progress on a terminal stderr only', async () => {
    await setup({ ttyStderr: true });
    conference(CONF);
    conference(STARTED);
    expect(await f.run(['wait', 'conference', '3', '--for', 'started'])).toBe(0);
    expect(f.stderr()).toContain('\rWaiting for conference 3 to be started: check 2, 5s of 10m');
    expect(f.stderr().endsWith('\r')).toBe(true);
  });
});

describe('wait recording and user', () => {
  it('waits for one recording to be finished', async () => {
    await setup();
    recordings([rec(6, 2), rec(7, 1)]);
    recordings([rec(6, 2), rec(7, 3)]);
    expect(await f.run(['wait', 'recording', '3', '7', '--for', 'finished', '--fail-on', 'failed'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(rec(7, 3));
  });

  it('a recording the conference does not have is exit 4', async () => {
    await setup();
    recordings([rec(6, 2)]);
    expect(await f.run(['wait', 'recording', '3', '7', '--for', 'finished'])).toBe(4);
    expect(f.stderr()).toContain('error: recording 7 of conference 3 does not exist');
  });

  it('waits for a user with the e-mail to exist', async () => {
    await setup();
    const path = `${P}/users?filter_attribute=email&filter_operator=Equal&filter_value=ada%40acme.com&page_size=1`;
    api().intercept({ path, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
    const ada = { id: 1, email: 'ada@acme.com', status: 0 };
    api().intercept({ path, method: 'GET' }).reply(200, page([ada]), JSON_HEADERS).times(2);
    expect(await f.run(['wait', 'user', 'ada@acme.com', '--for', 'exists'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(ada);

    expect(await f.run(['wait', 'user', 'ada@acme.com', '--for', 'active', '--max-wait', '0'])).toBe(124);
  });
});

describe('wait: bad flags are exit 2 before any request', () => {
  it.each([
    [['conference', '3', '--for', 'begun'], "--for 'begun' is not a condition of conference: started, ended, recording-ready, recording-failed, deleted"],
    [['recording', '3', '7', '--for', 'finished', '--fail-on', 'exists'], "--fail-on 'exists' is not a condition of recording"],
    [['conference', '3', '--for', 'started', '--fail-on', 'started'], "--fail-on 'started' is the condition waited for"],
    [['conference', '3', '--for', 'started', '--max-wait', '10 min'], "--max-wait must be a duration: a number with ms, s, m or h (a bare number is seconds), not '10 min'"],
    [['conference', '3', '--for', 'started', '--interval', '0s'], '--interval must be a positive duration'],
    [['conference', 'x', '--for', 'started'], "id must be a positive integer, not 'x'"],
    [['user', 'a@b.c'], "required option '--for <condition>' not specified"],
    [['user', 'a@b.c', '--for', 'exists', '--raw'], "--raw does not apply to 'confctl wait user'"],
  ])('wait %j', async (args, message) => {
    await setup();
    expect(await f.run(['wait', ...args])).toBe(2);
    expect(f.stderr()).toContain(message);
  });
});
