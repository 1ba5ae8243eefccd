import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { openProfiles } from '../../src/config/profiles.js';
import { memoryKeyring } from '../config/fake-keyring.js';
import { BASE, fake, JSON_HEADERS, ORIGIN, page, SECRET, USERS, withProfile } from './helpers.js';

const P = '/api/public/v2.0';

/** `confctl completion SHELL --ids NOUN`: what the scripts call for `get`/`update` ids. */
describe('completion ids', () => {
  it('prints the ids of one page (100 rows), one per line; fish gets the email as description', async () => {
    const f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users?page_size=100`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS);
    expect(await f.run(['completion', 'bash', '--ids', 'users'])).toBe(0);
    expect(f.stdout()).toBe('1\n2\n');
    const g = await withProfile();
    g.agent.get(ORIGIN).intercept({ path: `${P}/customers?page_size=100`, method: 'GET' }).reply(200, page([{ id: 7, email: 'c@x.test' }]), JSON_HEADERS);
    expect(await g.run(['completion', 'fish', '--ids', 'customers'])).toBe(0);
    expect(g.stdout()).toBe('7\tc@x.test\n');
    const h = await withProfile();
    h.agent.get(ORIGIN).intercept({ path: `${P}/online_conferences?page_size=100`, method: 'GET' }).reply(200, page([{ id: 3, title: 'Weekly  sync' }]), JSON_HEADERS);
    expect(await h.run(['completion', 'fish', '--ids', 'conferences'])).toBe(0);
    expect(h.stdout()).toBe('3\tWeekly sync\n');
    expect(f.stderr() + g.stderr() + h.stderr()).toBe('');
  });

  it('gives up after 300 ms: nothing printed, exit 0', async () => {
    const f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users?page_size=100`, method: 'GET' }).reply(200, page(USERS), JSON_HEADERS).delay(2000);
    const started = performance.now();
    expect(await f.run(['completion', 'bash', '--ids', 'users'])).toBe(0);
    expect(performance.now() - started).toBeLessThan(1500);
    expect([f.stdout(), f.stderr()]).toEqual(['', '']);
  });

  it('silent on an error answer, without retrying it', async () => {
    const f = await withProfile();
    f.agent.get(ORIGIN).intercept({ path: `${P}/users?page_size=100`, method: 'GET' }).reply(503, 'Service busy, try again.', { headers: { 'retry-after': '1' } });
    expect(await f.run(['completion', 'bash', '--ids', 'users'])).toBe(0);
    expect([f.stdout(), f.stderr()]).toEqual(['', '']);
    f.agent.assertNoPendingInterceptors();
  });

  it('silent without a profile, for an unknown noun, and never asks a question', async () => {
    const f = fake({ tty: true });
    expect(await f.run(['completion', 'bash', '--ids', 'users'])).toBe(0);
    expect(await f.run(['completion', 'bash', '--ids', 'nonsense'])).toBe(0);
    expect([f.stdout(), f.stderr()]).toEqual(['', '']);
  });

  it('a keychain profile completes no ids and the keychain is never read', async () => {
    const f = fake();
    const keyring = memoryKeyring();
    const reads: string[] = [];
    const watched = { ...keyring, get: (account: string) => (reads.push(account), keyring.get(account)) };
    f.ctx.config = () => openProfiles({ env: f.ctx.env, keyring: watched });
    (await f.ctx.config()).save('acme', { base_url: BASE, key_id: 'ak_test', secret: SECRET }, { activateIfNone: true, keyring: true });
    expect(keyring.entries.get('ak_test')).toBe(SECRET);
    expect(await f.run(['completion', 'bash', '--ids', 'users'])).toBe(0);
    expect([f.stdout(), f.stderr(), reads]).toEqual(['', '', []]);
  });

  it('the scripts ask for ids after get, update and delete of the top-level lists only', async () => {
    const f = fake();
    expect(await f.run(['completion', 'bash'])).toBe(0);
    const bash = f.stdout();
    for (const path of ['users get', 'users update', 'customers get', 'customers update']) expect(bash).toContain(`'${path}') _confctl_ids '${path.split(' ')[0]}' ;;`);
    expect(bash).not.toContain(`'users accounts') _confctl_ids`);
    expect(bash).toContain(`'conferences delete') _confctl_ids 'conferences' ;;`);
    expect(bash).not.toContain(`'conferences attendees remove') _confctl_ids`);
    const g = fake();
    expect(await g.run(['completion', 'fish'])).toBe(0);
    expect(g.stdout()).toContain(`complete -c confctl -n '__confctl_at '\\''users get'\\''' -a '(__confctl_ids users)'`);
  });
});
