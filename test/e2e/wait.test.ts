import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, BIN, type Result, Sandbox } from './harness.js';

/**
 * `confctl wait` through the built bin against `serve --demo`: a wait started first sees the
 * state the provider's `admin` commands make later, and returns; the timeout and `--fail-on`
 * exit codes. Nothing here depends on timing: each wait has checked (and printed a line) before
 * the change it waits for is made, and `--max-wait` is far longer than any run.
 */
describe.each(BACKENDS)('e2e: wait (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  const WORK_HOURS = '{"sunday":[],"monday":[],"tuesday":[],"wednesday":[],"thursday":[],"friday":[],"saturday":[]}';
  let n = 0;

  beforeAll(async () => {
    await box.serve(['--demo', '--rate-limit', 'off']);
  });
  afterAll(() => box.dispose());

  /** Starts `confctl wait ARGS -o ndjson`; `checked` resolves on its first check line. */
  function background(args: string[]): { checked: Promise<unknown>; done: Promise<Result> } {
    const child = spawn(process.execPath, [BIN, 'wait', ...args, '--interval', '100ms', '--max-wait', '2m', '-o', 'ndjson'], { env: box.env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let seen: (line: unknown) => void;
    const checked = new Promise((resolve) => (seen = resolve));
    child.stdout.on('data', (d) => {
      stdout += d;
      const first = stdout.split('\n')[0];
      if (stdout.includes('\n')) seen(JSON.parse(first));
    });
    child.stderr.on('data', (d) => (stderr += d));
    const done = new Promise<Result>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
    return { checked, done };
  }
  const lines = (r: Result) => r.stdout.trim().split('\n').map((l) => JSON.parse(l));

  async function newConference(): Promise<number> {
    const [account] = await box.json<any[]>(['users', 'accounts', '1']);
    const conference = await box.json(['conferences', 'create', '--account', String(account.id), '--public-id', `wait-${backend}-${++n}`, '--title', 'Wait', '--private']);
    return conference.id;
  }

  it('waits for a conference to start and its recording to finish, as the provider drives them', async () => {
    const id = await newConference();
    const started = background(['conference', String(id), '--for', 'started']);
    expect(await started.checked).toMatchObject({ check: 1, met: false, resource: { id, started_at: null } });
    const { recording } = await box.json(['admin', 'conferences', 'start', String(id)]);
    const r = await started.done;
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r).at(-1)).toMatchObject({ met: true, failed_on: null, resource: { id, is_occurred: true } });

    const finished = background(['recording', String(id), String(recording.id), '--for', 'finished', '--fail-on', 'failed']);
    expect(await finished.checked).toMatchObject({ met: false, resource: { id: recording.id, status: 1 } });
    await box.json(['admin', 'conferences', 'end', String(id)]);
    await box.json(['admin', 'recordings', 'finish', String(recording.id)]);
    const f = await finished.done;
    expect(f.code, f.stderr).toBe(0);
    expect(lines(f).at(-1)).toMatchObject({ met: true, resource: { id: recording.id, status: 3 } });

    const ready = await box.run(['wait', 'conference', String(id), '--for', 'recording-ready', '--fail-on', 'recording-failed']);
    expect(ready.code, ready.stderr).toBe(0);
    expect(JSON.parse(ready.stdout)).toMatchObject({ id, ended_at: expect.any(String) });
  });

  it('exit 124 when --max-wait passes, 9 when a --fail-on condition holds', async () => {
    const id = await newConference();
    const late = await box.run(['wait', 'conference', String(id), '--for', 'started', '--max-wait', '300ms', '--interval', '100ms']);
    expect(late.code).toBe(124);
    expect(late.stderr).toContain(`timed out after 300ms waiting for conference ${id} to be started`);

    const { recording } = await box.json(['admin', 'conferences', 'start', String(id)]);
    await box.json(['admin', 'recordings', 'fail', String(recording.id)]);
    const failed = await box.run(['wait', 'conference', String(id), '--for', 'recording-ready', '--fail-on', 'recording-failed']);
    expect(failed.code).toBe(9);
    expect(failed.stderr).toContain(`conference ${id} is recording-failed (--fail-on recording-failed)`);
    const missing = await box.run(['wait', 'conference', '999999', '--for', 'started']);
    expect(missing.code).toBe(4);
  });

  it('waits for a user to exist', async () => {
    const email = `waited-${backend}@example.com`;
    const exists = background(['user', email.toUpperCase(), '--for', 'exists']);
    expect(await exists.checked).toMatchObject({ met: false, resource: null });
    const created = await box.json(['users', 'create', '--first-name', 'Wai', '--last-name', 'Ted', '--email', email, '--timezone', 'UTC', '--role', 'Member', '--work-hours', WORK_HOURS]);
    const r = await exists.done;
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r).at(-1)).toMatchObject({ met: true, resource: { id: created.id, email } });
  });
});
