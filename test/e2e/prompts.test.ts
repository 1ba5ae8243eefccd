import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, BIN, Sandbox } from './harness.js';
import { hasTmux, TmuxTerminal } from './tmux.js';

/** The interactive prompts of `login`, `conferences create` and `users create`, typed into a real terminal under tmux. */
const TMUX = hasTmux();
describe.skipIf(!TMUX).each(BACKENDS)(`e2e: prompts on a terminal (tmux, serve on %s)${TMUX ? '' : ' (skipped: tmux is not installed; .ci/run installs it)'}`, (backend) => {
  const box = new Sandbox(backend);
  let key: { key_id: string; secret: string };
  let baseUrl: string;
  const terminals: TmuxTerminal[] = [];
  const terminal = (args: string[]) => {
    const t = new TmuxTerminal([process.execPath, BIN, ...args], { CONFCTL_CONFIG_DIR: box.configDir, CONFCTL_DATA: box.dataDir, NO_COLOR: '1' });
    terminals.push(t);
    return t;
  };

  beforeAll(async () => {
    key = await box.json(['admin', 'init', '--no-profile']);
    ({ baseUrl } = await box.serve(['--demo', '--no-profile', '--rate-limit', 'off']));
  });
  afterAll(async () => {
    terminals.forEach((t) => t.close());
    await box.dispose();
  });

  it('login asks for the profile, masks the secret, checks the key and saves the profile', async () => {
    const t = terminal(['login']);
    await t.waitFor(/\? Profile name/);
    t.send('dev', 'Enter');
    await t.waitFor(/\? Tenant domain/);
    t.send(baseUrl, 'Enter');
    await t.waitFor(/\? Access key id/);
    t.send(key.key_id, 'Enter');
    await t.waitFor(/\? Access key secret/);
    t.send(key.secret, 'Enter');
    const screen = await t.waitFor(/EXIT=\d+/);
    expect(screen).toContain('EXIT=0');
    expect(screen).toContain("saved profile 'dev' (active)");
    expect(screen).not.toContain(key.secret);
    expect(screen).toContain('*'.repeat(key.secret.length));

    const saved = JSON.parse(readFileSync(join(box.configDir, 'profiles.json'), 'utf8'));
    expect(saved.active).toBe('dev');
    expect(saved.profiles.dev).toMatchObject({ base_url: baseUrl, key_id: key.key_id, secret: key.secret });
  });

  it('conferences create asks for the account, title, a suggested public id and visibility', async () => {
    const t = terminal(['conferences', 'create', '--attendee', 'Guest <guest@example.com>', '-o', 'json']);
    await t.waitFor(/\? User id of the account owner/);
    t.send('1', 'Enter');
    await t.waitFor(/❯ 1 {2}Ada Lovelace's Zoom room/);
    t.send('Down', 'Enter');
    await t.waitFor(/\? Title/);
    t.send('Team Retro: Q3', 'Enter');
    await t.waitFor(/\? Public id .*\(team-retro-q3\)/);
    t.send('Enter');
    await t.waitFor(/\? Public .*\(y\/N\)/);
    t.send('y', 'Enter');
    const screen = await t.waitFor(/EXIT=\d+/);
    expect(screen).toContain('EXIT=0');
    const created = JSON.parse(screen.slice(screen.indexOf('{'), screen.lastIndexOf('}') + 1));
    expect(created).toMatchObject({ online_conference_account_id: 7, title: 'Team Retro: Q3', public_id: 'team-retro-q3', is_public: true });

    const attendees = await box.json<any[]>(['conferences', 'attendees', 'list', String(created.id)], { env: { CONFCTL_PROFILE: 'dev' } });
    expect(attendees.map((a) => a.email).sort()).toEqual(['ada.lovelace@demo.example.com', 'guest@example.com']);
  });

  it('users create asks for the missing fields in order, offers office hours, and creates an invited user', async () => {
    const t = terminal(['users', 'create', '--first-name', 'Tess', '-o', 'json', '--fields', 'id,last_name,email,timezone,role,department_id,status']);
    await t.waitFor(/\? Last name/);
    t.send('Tmux', 'Enter');
    await t.waitFor(/\? E-mail/);
    t.send('tess@example.com', 'Enter');
    await t.waitFor(/\? Time zone \(IANA name\)/);
    t.send('Europe/Paris', 'Enter');
    await t.waitFor(/\? Role/);
    t.send('Manager', 'Enter');
    await t.waitFor(/❯ Monday to Friday, 09:00-17:00/);
    t.send('Enter');
    const screen = await t.waitFor(/EXIT=\d+/);
    expect(screen).toContain('EXIT=0');
    const created = JSON.parse(screen.slice(screen.indexOf('{'), screen.lastIndexOf('}') + 1));
    expect(created).toMatchObject({ last_name: 'Tmux', email: 'tess@example.com', timezone: 'Europe/Paris', role: 'Manager', department_id: null, status: 0 });
    const stored = await box.json(['users', 'get', String(created.id)], { env: { CONFCTL_PROFILE: 'dev' } });
    expect(stored).toMatchObject({ first_name: 'Tess', status: 0 });
    expect(stored.work_hours.friday).toEqual([{ start: { hour: 9, minute: 0, second: 0 }, end: { hour: 17, minute: 0, second: 0 } }]);
    const invitations = await box.json<any[]>(['admin', 'invitations', 'list']);
    expect(invitations.filter((i) => i.user_id === created.id).map((i) => i.email)).toEqual(['tess@example.com']);
  });

  it('in a pipe the same command never prompts and names the missing flags (exit 2)', async () => {
    const r = await box.run(['conferences', 'create', '--title', 'No prompts'], { env: { CONFCTL_PROFILE: 'dev' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required flags: --account, --public-id/);
    expect(r.stderr).not.toContain('?');
    const user = await box.run(['users', 'create', '--first-name', 'No', '--last-name', 'Prompts'], { env: { CONFCTL_PROFILE: 'dev' } });
    expect(user.code).toBe(2);
    expect(user.stderr).toContain('missing required flags: --email, --timezone, --work-hours, --role');
    expect(user.stderr).not.toContain('?');
  });
});
