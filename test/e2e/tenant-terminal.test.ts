import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { BACKENDS, BIN, Sandbox } from './harness.js';
import { hasTmux, TmuxTerminal } from './tmux.js';

/**
 * `apply -f` on a real terminal (tmux) and in a pipe: on a terminal it shows the plan and asks
 * first, and shows progress while it reads the tenant and while it applies; in a pipe it never
 * asks (it needs --yes) and writes no progress. The terminal's raw output is recorded, so a
 * progress line that is redrawn and then cleared is still seen.
 */
const TMUX = hasTmux();
describe.skipIf(!TMUX).each(BACKENDS)(`e2e: apply's question and progress on a terminal, none in a pipe (tmux, serve on %s)${TMUX ? '' : ' (skipped: tmux is not installed; .ci/run installs it)'}`, (backend) => {
  const box = new Sandbox(backend);
  const dir = join(box.root, 'tenant');
  const file = join(dir, 'customers.yaml');
  const terminals: TmuxTerminal[] = [];
  let count = 0;

  /** `confctl ARGS` on a terminal whose raw output is recorded in `record`. */
  const terminal = (args: string[], record: string) => {
    const t = new TmuxTerminal([process.execPath, BIN, ...args], { CONFCTL_CONFIG_DIR: box.configDir, CONFCTL_DATA: box.dataDir, NO_COLOR: '1' }, { record });
    terminals.push(t);
    return t;
  };
  /** Appends `suffix` to every customer's last name in the desired state. */
  const renameAll = (suffix: string) => {
    const customers = parse(readFileSync(file, 'utf8')) as Array<{ last_name: string }>;
    for (const c of customers) c.last_name = `${c.last_name}${suffix}`;
    writeFileSync(file, stringify(customers));
    return customers.length;
  };
  const renamed = async (suffix: string) => (await box.json<Array<{ last_name: string }>>(['customers', 'list', '--all'])).filter((c) => c.last_name.endsWith(suffix)).length;

  beforeAll(async () => {
    await box.json(['admin', 'init']);
    await box.serve(['--demo', '--rate-limit', 'off']);
    expect((await box.run(['export', dir, '--kinds', 'customers'])).code).toBe(0);
    count = renameAll('-tty');
    expect(count).toBeGreaterThan(10);
  }, 90_000);
  afterAll(async () => {
    terminals.forEach((t) => t.close());
    await box.dispose();
  });

  it('asks before applying; "n" sends nothing (exit 2)', async () => {
    const t = terminal(['apply', '-f', dir], join(box.root, 'no.out'));
    const asked = await t.waitFor(/Apply these \d+ changes\? \(y\/N\)/);
    expect(asked).toContain(`Apply these ${count} changes? (y/N)`);
    expect(asked).toContain(`Plan: 0 to create, ${count} to update, 0 to delete, 0 attendees to add, 0 to remove; 0 unmanaged.`);
    expect(asked).toMatch(/^~ update customer \S+@/m);
    t.send('n', 'Enter');
    const screen = await t.waitFor(/EXIT=\d+/);
    expect(screen).toContain('error: not applied; nothing was sent');
    expect(screen).toContain('EXIT=2');
    expect(await renamed('-tty')).toBe(0);
  }, 60_000);

  it('"y" applies, with a progress line while reading the tenant and a bar while applying', async () => {
    const record = join(box.root, 'yes.out');
    const t = terminal(['apply', '-f', dir], record);
    await t.waitFor(/Apply these \d+ changes\? \(y\/N\)/);
    t.send('y', 'Enter');
    const screen = await t.waitFor(/EXIT=\d+/);
    expect(screen).toContain(`applied ${count}, failed 0, skipped 0`);
    expect(screen).toContain('EXIT=0');
    const raw = readFileSync(record, 'utf8');
    expect(raw).toMatch(/Fetched \d+\/\d+ rows/);
    // The bar is redrawn in place (a carriage return before each state) up to the last change, then cleared.
    expect(raw).toMatch(new RegExp(`\\r\\[#+\\]  ${count}/${count}`));
    expect(raw.indexOf(`${count}/${count}`)).toBeLessThan(raw.indexOf(`applied ${count}, failed 0`));
    expect(await renamed('-tty')).toBe(count);
  }, 60_000);

  it('in a pipe: no question (without --yes it refuses, exit 2), no progress; with --yes it applies', async () => {
    renameAll('-pipe');
    const unasked = await box.run(['apply', '-f', dir]);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('error: not applied: applying asks first, and there is no terminal to ask');
    expect(unasked.stderr).not.toContain('Apply these');
    const r = await box.run(['apply', '-f', dir, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`applied ${count}, failed 0, skipped 0\n`);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\r|Fetched|\[#|Apply these/);
    expect(JSON.parse(r.stdout).changes).toHaveLength(count);
    expect(await renamed('-tty-pipe')).toBe(count);
  }, 60_000);
});
