import { afterEach, describe, expect, it } from 'vitest';
import { parseJoinExpiry } from '../../src/cli/commands/conferences/join-link.js';
import { cannotOpenReason, openerCommand } from '../../src/cli/open-url.js';
import { type Fake, JSON_HEADERS, ORIGIN, TEXT_HEADERS, withProfile } from './helpers.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const P = '/api/public/v2.0';
const PATH = `${P}/online_conferences/3/attendees/8/join_token`;
const TOKEN = { token: '3.8.1769859000.abc', join_url: `${ORIGIN}/rooms/weekly?token=3.8.1769859000.abc`, expires_at: '2026-01-31T10:30:00.000Z' };

/** Expects one POST with `body` and answers the token. */
function answer(body: unknown) {
  f.agent
    .get(ORIGIN)
    .intercept({ path: PATH, method: 'POST', body: (b) => JSON.stringify(JSON.parse(b)) === JSON.stringify(body) })
    .reply(200, { message: 'Success.', data: TOKEN }, JSON_HEADERS);
}

/** A fake whose browser opener records the URLs it was given (or fails when `fail` is set). */
async function withOpener(opts: { tty: boolean; env?: Record<string, string>; fail?: boolean }) {
  f = await withProfile({ tty: opts.tty, env: opts.env });
  const opened: string[] = [];
  f.ctx.openUrl = async (url) => {
    if (opts.fail) throw Object.assign(new Error('spawn xdg-open ENOENT'), { code: 'ENOENT' });
    opened.push(url);
  };
  return opened;
}

describe('conferences attendees join-link', () => {
  it('sends {} by default and prints {token, join_url, expires_at} as JSON', async () => {
    f = await withProfile();
    answer({});
    expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual(TOKEN);
  });

  it('passes --expiry and prints the URL and expiry in every format', async () => {
    for (const [format, check] of [
      ['yaml', (out: string) => expect(out).toContain(`join_url: ${TOKEN.join_url}`)],
      ['csv', (out: string) => expect(out.split('\n')[0]).toBe('token,join_url,expires_at')],
      ['ndjson', (out: string) => expect(JSON.parse(out)).toEqual(TOKEN)],
      ['table', (out: string) => expect(out).toContain(TOKEN.join_url)],
    ] as const) {
      f = await withProfile();
      answer({ expiry: 600 });
      expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8', '--expiry', '600', '-o', format]), format).toBe(0);
      check(f.stdout());
      expect(f.stdout(), format).toContain(format === 'table' ? '2026-01-31' : TOKEN.expires_at);
    }
  });

  it('--raw prints the envelope; --fields picks keys', async () => {
    f = await withProfile();
    answer({});
    expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8', '--raw'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual({ message: 'Success.', data: TOKEN });
    f = await withProfile();
    answer({});
    expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8', '--fields', 'join_url'])).toBe(0);
    expect(JSON.parse(f.stdout())).toEqual({ join_url: TOKEN.join_url });
  });

  it('an ended conference → exit 5 with the message', async () => {
    f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: PATH, method: 'POST' }).reply(409, 'Cannot modify an online conference that has ended.', TEXT_HEADERS);
    expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8'])).toBe(5);
    expect(f.stderr()).toContain('Cannot modify an online conference that has ended.');
  });

  it('checks --expiry before any request', async () => {
    expect(parseJoinExpiry('60')).toBe(60);
    expect(parseJoinExpiry('86400')).toBe(86400);
    for (const bad of ['59', '86401', '-1', '1.5', 'x', '']) expect(() => parseJoinExpiry(bad)).toThrow(/--expiry must be whole seconds from 60 to 86400/);
    f = await withProfile();
    expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8', '--expiry', '30'])).toBe(2);
  });

  it('--open on a terminal with a display opens the join URL after printing it', async () => {
    const opened = await withOpener({ tty: true, env: { DISPLAY: ':0' } });
    answer({});
    expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8', '--open', '-o', 'json'])).toBe(0);
    expect(opened).toEqual([TOKEN.join_url]);
    expect(JSON.parse(f.stdout())).toEqual(TOKEN);
    expect(f.stderr()).toContain('Opened the join URL in your browser.');
  });

  it('--open in a pipe, without a display, or with a failing opener: prints, says so, exit 0', async () => {
    for (const [opts, why] of [
      [{ tty: false, env: { DISPLAY: ':0' } }, 'output is not a terminal'],
      [{ tty: true, env: {} }, 'no graphical display'],
      [{ tty: true, env: { WAYLAND_DISPLAY: 'wayland-0' }, fail: true }, 'ENOENT'],
    ] as const) {
      const opened = await withOpener(opts);
      answer({});
      expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8', '--open', '-o', 'json'])).toBe(0);
      expect(opened).toEqual([]);
      expect(JSON.parse(f.stdout())).toEqual(TOKEN);
      expect(f.stderr()).toContain(`Could not open a browser (${why}`);
    }
  });

  it('--dry-run prints the request and sends nothing; with --open it is a usage error', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8', '--expiry', '120', '--dry-run'])).toBe(0);
    expect(f.stdout()).toContain(`${PATH}`);
    expect(f.stdout()).toContain('"expiry":120');
    f = await withProfile();
    expect(await f.run(['conferences', 'attendees', 'join-link', '3', '8', '--open', '--dry-run'])).toBe(2);
  });
});

describe('the browser opener', () => {
  it('uses open, start or xdg-open by platform', () => {
    expect(openerCommand('darwin', 'http://x/rooms/a?token=1')).toEqual({ command: 'open', args: ['http://x/rooms/a?token=1'] });
    expect(openerCommand('win32', 'http://x/')).toEqual({ command: 'cmd', args: ['/d', '/s', '/c', 'start', '""', '"http://x/"'] });
    expect(openerCommand('linux', 'http://x/')).toEqual({ command: 'xdg-open', args: ['http://x/'] });
  });

  it('needs a terminal, and a display on Unix', () => {
    expect(cannotOpenReason({ stdoutIsTTY: true }, { DISPLAY: ':1' }, 'linux')).toBeUndefined();
    expect(cannotOpenReason({ stdoutIsTTY: true }, {}, 'darwin')).toBeUndefined();
    expect(cannotOpenReason({ stdoutIsTTY: true }, {}, 'win32')).toBeUndefined();
    expect(cannotOpenReason({ stdoutIsTTY: true }, {}, 'freebsd')).toMatch(/no graphical display/);
    expect(cannotOpenReason({ stdoutIsTTY: false }, {}, 'darwin')).toBe('output is not a terminal');
  });
});
