import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

/**
 * `confctl conferences attendees join-link` through the built bin against `serve --demo`, lenient
 * and `--strict`, and the join URL it prints fetched from that server. The demo conferences:
 * demo-weekly-sync (not started), demo-customer-demo (running), demo-retro (ended).
 */
describe.each([
  { mode: 'lenient', flags: [], backend: 'sqlite' },
  { mode: '--strict', flags: ['--strict'], backend: 'sqlite' },
  { mode: 'lenient', flags: [], backend: 'postgres' },
] as const)('e2e: join links ($mode, serve on $backend)', ({ flags, backend }) => {
  const box = new Sandbox(backend);
  /** Conference id and first attendee id, by public id. */
  const ids = new Map<string, { conf: number; attendee: number; title: string; name: string }>();

  beforeAll(async () => {
    await box.serve(['--demo', '--rate-limit', 'off', ...flags]);
    for (const c of await box.json<{ id: number; public_id: string; title: string }[]>(['conferences', 'list'])) {
      const [first] = await box.json<{ id: number; name: string }[]>(['conferences', 'attendees', 'list', String(c.id)]);
      ids.set(c.public_id, { conf: c.id, attendee: first.id, title: c.title, name: first.name });
    }
  });
  afterAll(() => box.dispose());

  const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

  it('prints {token, join_url, expires_at}; the URL opens the page of a waiting conference', async () => {
    const w = ids.get('demo-weekly-sync')!;
    const link = await box.json(['conferences', 'attendees', 'join-link', String(w.conf), String(w.attendee), '--expiry', '600']);
    expect(Object.keys(link)).toEqual(['token', 'join_url', 'expires_at']);
    expect(link.join_url).toMatch(new RegExp(`^http://[^/]+/rooms/demo-weekly-sync\\?token=${link.token.replace(/\./g, '\\.')}$`));
    const remaining = Date.parse(link.expires_at) - Date.now();
    expect(remaining).toBeGreaterThan(500_000);
    expect(remaining).toBeLessThanOrEqual(601_000);

    const page = await fetch(link.join_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none';/);
    const html = await page.text();
    expect(html).toContain(`<h1>${escaped(w.title)}</h1>`);
    expect(html).toContain(`<strong>${escaped(w.name)}</strong>`);
    expect(html).toContain('data-state="waiting"');

    const head = await fetch(link.join_url, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    const tampered = await fetch(link.join_url.replace(/.$/, (c: string) => (c === '0' ? '1' : '0')));
    expect([tampered.status, await tampered.text()]).toEqual([403, 'Invalid token.']);
  });

  it('a running conference says running; an ended one refuses (exit 5)', async () => {
    const r = ids.get('demo-customer-demo')!;
    const url = (await box.json(['conferences', 'attendees', 'join-link', String(r.conf), String(r.attendee)])).join_url;
    expect(await (await fetch(url)).text()).toContain('data-state="running"');
    const e = ids.get('demo-retro')!;
    const ended = await box.run(['conferences', 'attendees', 'join-link', String(e.conf), String(e.attendee)]);
    expect(ended.code).toBe(5);
    expect(ended.stderr).toContain('Cannot modify an online conference that has ended.');
  });

  it('table and CSV show the URL and the expiry; --open in a pipe prints and says it could not open', async () => {
    const w = ids.get('demo-weekly-sync')!;
    const args = ['conferences', 'attendees', 'join-link', String(w.conf), String(w.attendee)];
    const csv = await box.run([...args, '-o', 'csv', '--fields', 'join_url,expires_at']);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toMatch(/^join_url,expires_at\nhttp:\/\/[^,]+\/rooms\/demo-weekly-sync\?token=[0-9a-f.]+,\d{4}-\d\d-\d\dT[0-9:.]+Z\n$/);
    const table = await box.run([...args, '-o', 'table']);
    expect(table.stdout).toContain('/rooms/demo-weekly-sync?token=');
    expect(table.stdout).toContain('expires_at');
    const open = await box.run([...args, '--open']);
    expect(open.code).toBe(0);
    expect(JSON.parse(open.stdout).join_url).toContain('/rooms/demo-weekly-sync?token=');
    expect(open.stderr).toContain('Could not open a browser (output is not a terminal); open the join URL yourself.');
  });

  it('refuses a bad --expiry before any request (2) and an unknown attendee (4)', async () => {
    const w = ids.get('demo-weekly-sync')!;
    const bad = await box.run(['conferences', 'attendees', 'join-link', String(w.conf), String(w.attendee), '--expiry', '59']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--expiry must be whole seconds from 60 to 86400')]);
    const missing = await box.run(['conferences', 'attendees', 'join-link', String(w.conf), '999999']);
    expect(missing.code).toBe(4);
  });
});
