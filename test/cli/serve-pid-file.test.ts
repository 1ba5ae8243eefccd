import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AdminFake, adminFake } from './admin-helpers.js';

let f: AdminFake;
afterEach(() => f.dispose());

/** Starts `serve --pid-file FILE` in-process; answers the run's exit code once stopped with SIGTERM. */
async function serveUntilListening(pidFile: string): Promise<{ stop: () => Promise<number> }> {
  const serving = f.run(['serve', '--port', '0', '--log', 'off', '--no-profile', '--pid-file', pidFile]);
  await vi.waitFor(() => expect(f.stdout()).toContain('Listening on'), { timeout: 10_000 });
  return {
    stop: async () => {
      process.emit('SIGTERM');
      return serving;
    },
  };
}

/** A process id no process has now: a child that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

describe('serve --pid-file', () => {
  it('is written once listening and removed on exit', async () => {
    f = adminFake();
    const pidFile = join(f.configDir, 'serve.pid');
    const s = await serveUntilListening(pidFile);
    expect(readFileSync(pidFile, 'utf8')).toBe(`${process.pid}\n`);
    expect(await s.stop()).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('naming a live process: exit 5 before anything is created, the file kept', async () => {
    f = adminFake();
    const pidFile = join(f.configDir, 'serve.pid');
    writeFileSync(pidFile, `${process.pid}\n`);
    expect(await f.run(['serve', '--port', '0', '--log', 'off', '--no-profile', '--pid-file', pidFile])).toBe(5);
    expect(f.stderr()).toContain(`error: ${pidFile} names process ${process.pid}, which is running`);
    expect(f.stderr()).toMatch(/hint: .*kill/);
    expect(existsSync(f.dataDir)).toBe(false);
    expect(readFileSync(pidFile, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('with --log json the note is a JSON line too', async () => {
    f = adminFake();
    const pidFile = join(f.configDir, 'serve.pid');
    writeFileSync(pidFile, `${deadPid()}\n`);
    const serving = f.run(['serve', '--port', '0', '--log', 'json', '--no-profile', '--pid-file', pidFile]);
    await vi.waitFor(() => expect(f.stdout()).toContain('Listening on'), { timeout: 10_000 });
    process.emit('SIGTERM');
    expect(await serving).toBe(0);
    for (const line of f.stderr().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(JSON.parse(f.stderr().trim().split('\n')[0])).toMatchObject({ source: 'serve', message: expect.stringContaining('replacing the stale') });
  });

  it('a stale one (no such process) is replaced, with a note', async () => {
    f = adminFake();
    const pidFile = join(f.configDir, 'serve.pid');
    const dead = deadPid();
    writeFileSync(pidFile, `${dead}\n`);
    const s = await serveUntilListening(pidFile);
    expect(f.stderr()).toContain(`note: replacing the stale ${pidFile} (process ${dead} is not running)`);
    expect(readFileSync(pidFile, 'utf8')).toBe(`${process.pid}\n`);
    expect(await s.stop()).toBe(0);
  });
});
