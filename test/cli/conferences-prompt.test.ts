import { afterEach, describe, expect, it } from 'vitest';
import { type Fake, JSON_HEADERS, ORIGIN, page, withProfile } from './helpers.js';
import { scripted } from './scripted-prompter.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const api = () => f.agent.get(ORIGIN);
const P = '/api/public/v2.0';
const ACCOUNTS = [
  { id: 4, owner_type: 'User', owner_id: 2, connected_account_id: 1, name: 'Ada (Zoom)' },
  { id: 6, owner_type: 'User', owner_id: 2, connected_account_id: 2, name: 'Ada (Meet)' },
];

function expectCreate(body: Record<string, unknown>) {
  let sent: unknown;
  api()
    .intercept({ path: `${P}/online_conferences`, method: 'POST' })
    .reply((o) => ((sent = JSON.parse(String(o.body))), { statusCode: 200, data: { message: 'Created', data: { id: 3, ...body } }, responseOptions: JSON_HEADERS }));
  return () => expect(sent).toEqual(body);
}

describe('conferences create on a terminal', () => {
  it('asks for every missing field: account from the user\'s accounts, title, public id (suggested from the title), public', async () => {
    const { prompter, asked } = scripted({ 'User id': '2', 'Online conference account': 6, Title: 'Weekly Sync (Berlin)', 'Public id': '', Public: true });
    f = await withProfile({ tty: true, prompter, env: { NO_COLOR: '1' } });
    api().intercept({ path: `${P}/users/2/online_conference_accounts?page_size=100`, method: 'GET' }).reply(200, page(ACCOUNTS), JSON_HEADERS);
    const check = expectCreate({ online_conference_account_id: 6, title: 'Weekly Sync (Berlin)', public_id: 'weekly-sync-berlin', is_public: true });
    expect(await f.run(['conferences', 'create'])).toBe(0);
    check();
    expect(asked.map((q) => q.kind)).toEqual(['input', 'select', 'input', 'input', 'confirm']);
    expect(asked[1].choices).toEqual([
      { name: '4  Ada (Zoom)', value: 4 },
      { name: '6  Ada (Meet)', value: 6 },
    ]);
    expect(asked[3].default).toBe('weekly-sync-berlin');
    expect(f.stdout()).toContain('weekly-sync-berlin');
  });

  it('asks only for what flags and --data leave out', async () => {
    const { prompter, asked } = scripted({ 'Public id': 'my-id' });
    f = await withProfile({ tty: true, prompter });
    const check = expectCreate({ title: 'T', is_public: false, online_conference_account_id: 1, public_id: 'my-id' });
    expect(await f.run(['conferences', 'create', '--data', '{"title":"T","is_public":false}', '--account', '1', '-o', 'json'])).toBe(0);
    check();
    expect(asked).toEqual([{ kind: 'input', message: 'Public id (letters, digits, - and _)', default: 't' }]);
  });

  it('a user without accounts is exit 2 naming --account', async () => {
    const { prompter } = scripted({ 'User id': '2' });
    f = await withProfile({ tty: true, prompter });
    api().intercept({ path: `${P}/users/2/online_conference_accounts?page_size=100`, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
    expect(await f.run(['conferences', 'create', '--title', 'T', '--public-id', 'p', '--public'])).toBe(2);
    expect(f.stderr()).toContain('error: user 2 has no online conference accounts');
    expect(f.stderr()).toContain('hint: give --account ID');
  });

  it('never prompts when stdin is not a terminal', async () => {
    const { prompter, asked } = scripted({});
    f = await withProfile({ tty: true, stdinTty: false, prompter });
    expect(await f.run(['conferences', 'create', '--account', '1'])).toBe(2);
    expect(f.stderr()).toContain('error: missing required flags: --public-id, --title, --public or --private');
    expect(asked).toEqual([]);
  });
});
