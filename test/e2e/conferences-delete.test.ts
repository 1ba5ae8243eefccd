import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, BACKENDS, Sandbox } from './harness.js';
import { hasTmux, TmuxTerminal } from './tmux.js';

/**
 * `confctl conferences delete` and `conferences attendees remove` through the built bin against
 * `serve --demo` (weekly-sync and planning not started, customer-demo running, retro ended):
 * the refusal in a pipe, `--dry-run`, `--yes`, the service's 409s, and the question on a real
 * terminal under tmux.
 */
describe.each(BACKENDS)('e2e: deleting conferences and removing attendees (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  let ids: Record<string, number>;
  const TMUX = hasTmux();
  const terminals: TmuxTerminal[] = [];

  beforeAll(async () => {
    await box.serve(['--demo', '--rate-limit', 'off']);
    const rows = await box.json<{ id: number; public_id: string }[]>(['conferences', 'list']);
    ids = Object.fromEntries(rows.map((r) => [r.public_id.replace(/^demo-/, ''), r.id]));
  });
  afterAll(async () => {
    terminals.forEach((t) => t.close());
    await box.dispose();
  });

  const exists = async (id: number) => (await box.run(['conferences', 'get', String(id)])).code === 0;

  it('in a pipe refuses without --yes (exit 2, a hint) and --dry-run prints the DELETE; nothing is deleted', async () => {
    const id = String(ids.planning);
    const refused = await box.run(['conferences', 'delete', id]);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toContain('refusing to delete without confirmation');
    expect(refused.stderr).toContain('add --yes');
    const dry = await box.run(['conferences', 'delete', id, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`^curl -X DELETE http://\\S+/api/public/v2\\.0/online_conferences/${id} -H 'X-Access-Key-Id: ak_\\w+' -H 'X-Access-Key-Secret: \\*\\*\\*\\*'\\n$`));
    expect(await exists(ids.planning)).toBe(true);
  });

  it('--yes deletes: the conference answers 404 (exit 4) and stays listable with --with-trashed', async () => {
    const deleted = await box.json(['conferences', 'delete', String(ids.planning), '--yes']);
    expect(deleted).toMatchObject({ id: ids.planning, public_id: 'demo-planning', deleted_at: expect.stringMatching(/Z$/) });
    const gone = await box.run(['conferences', 'get', String(ids.planning)]);
    expect(gone.code).toBe(4);
    expect(gone.stderr).toContain('Resource object does not exist.');
    const trashed = await box.json<{ id: number; deleted_at: string | null }[]>(['conferences', 'list', '--with-trashed']);
    expect(trashed.find((c) => c.id === ids.planning)?.deleted_at).toBe(deleted.deleted_at);
    expect((await box.json<{ id: number }[]>(['conferences', 'list'])).map((c) => c.id)).not.toContain(ids.planning);
  });

  it('a running conference is not deleted (exit 5 with the message)', async () => {
    const r = await box.run(['conferences', 'delete', String(ids['customer-demo']), '--yes']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Cannot delete an online conference that is in progress.');
    expect(await exists(ids['customer-demo'])).toBe(true);
  });

  it('attendees remove: --yes removes a guest, the owner and an ended conference are refused (exit 5)', async () => {
    const conf = String(ids['weekly-sync']);
    const [guest] = await box.json<{ id: number }[]>(['conferences', 'attendees', 'add', conf, '--attendee', 'Guest <guest@example.com>']);
    const refused = await box.run(['conferences', 'attendees', 'remove', conf, String(guest.id)]);
    expect(refused.code).toBe(2);
    const removed = await box.json(['conferences', 'attendees', 'remove', conf, String(guest.id), '--yes']);
    expect(removed).toMatchObject({ id: guest.id, email: 'guest@example.com', deleted_at: expect.stringMatching(/Z$/) });
    const left = await box.json<{ id: number; email: string }[]>(['conferences', 'attendees', 'list', conf, '--all']);
    expect(left.map((a) => a.id)).not.toContain(guest.id);
    const owner = await box.run(['conferences', 'attendees', 'remove', conf, String(left[0].id), '--yes']);
    expect([owner.code, owner.stderr.includes('Cannot remove the owner of the online conference.')]).toEqual([5, true]);
    const retro = String(ids.retro);
    const [first] = await box.json<{ id: number }[]>(['conferences', 'attendees', 'list', retro]);
    const ended = await box.run(['conferences', 'attendees', 'remove', retro, String(first.id), '--yes']);
    expect([ended.code, ended.stderr.includes('Cannot modify an online conference that has ended.')]).toEqual([5, true]);
  });

  it.skipIf(!TMUX)(`on a terminal asks, naming the conference, and deletes on y${TMUX ? '' : ' (skipped: tmux is not installed)'}`, async () => {
    const id = ids['weekly-sync'];
    const t = new TmuxTerminal([process.execPath, BIN, 'conferences', 'delete', String(id), '-o', 'json'], { CONFCTL_CONFIG_DIR: box.configDir, CONFCTL_DATA: box.dataDir, NO_COLOR: '1' });
    terminals.push(t);
    await t.waitFor(new RegExp(`\\? Delete online conference ${id} "Weekly sync" \\(demo-weekly-sync\\)\\? \\(y/N\\)`));
    t.send('y', 'Enter');
    const screen = await t.waitFor(/EXIT=\d+/);
    expect(screen).toContain('EXIT=0');
    expect(await exists(id)).toBe(false);
  });
});
