import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractSections, type Section } from './extract.js';
import { describeFailure, runSection, type RunOptions } from './runner.js';

/** The README runner on a small sample README: it passes what works and fails what does not. */
describe('README example runner', () => {
  const sample = readFileSync(resolve(__dirname, 'sample-readme.md'), 'utf8');
  const sections = extractSections(sample);
  const section = (title: string): Section => sections.find((s) => s.title === title)!;
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  function options(extra: Partial<RunOptions> = {}): RunOptions {
    const root = mkdtempSync(join(tmpdir(), 'confctl-readme-runner-'));
    dirs.push(root);
    mkdirSync(join(root, 'work'));
    return { cwd: join(root, 'work'), scratch: join(root, 'steps'), env: process.env, ...extra };
  }

  it('runs every command in order, in one shell, and passes when each exits as stated', async () => {
    const opts = options();
    const run = await runSection(section('Passes'), opts);
    expect(run.failure).toBeUndefined();
    expect(run.steps.map((s) => s.exit)).toEqual([0, 0, 0, 0, 5, 1, 0]);
    expect(readFileSync(join(opts.cwd, 'greeting.txt'), 'utf8')).toBe('hello\n');
  });

  it('runs the sh data-dir blocks on a data directory only', async () => {
    for (const onDataDir of [true, false]) {
      const opts = options({ onDataDir });
      const run = await runSection(section('Some on a data directory only'), opts);
      expect(run.failure).toBeUndefined();
      expect(run.steps).toHaveLength(onDataDir ? 2 : 1);
      expect(readFileSync(join(opts.cwd, 'where.txt'), 'utf8')).toBe(onDataDir ? 'everywhere\ndata-dir\n' : 'everywhere\n');
    }
  });

  it('fails at a command that exits non-zero unannounced, with its line and output, and runs nothing after it', async () => {
    const opts = options();
    const s = section('A bad command');
    const run = await runSection(s, opts);
    expect(run.steps.map((x) => x.exit)).toEqual([0, 1]);
    expect(run.failure).toMatchObject({ exit: 1, command: { text: 'cat no-such-file', expectedExit: 0 } });
    expect(existsSync(join(opts.cwd, 'never.txt'))).toBe(false);
    const report = describeFailure(s, run);
    expect(report).toContain(`README section "A bad command" (line ${s.line}), example at README line ${run.failure!.command.line}:`);
    expect(report).toContain('$ cat no-such-file');
    expect(report).toContain('exited 1, expected 0');
    expect(report).toMatch(/--- its output \(stdout and stderr\) ---\n.*no-such-file.*No such file or directory/);
    expect(sample.split('\n')[run.failure!.command.line - 1]).toBe('cat no-such-file');
  });

  it('fails when a stated exit code is not the one the command ends with, either way', async () => {
    const wrong = await runSection(section('A wrong exit'), options());
    expect(wrong.failure).toMatchObject({ exit: 4, command: { expectedExit: 5 } });
    expect(describeFailure(section('A wrong exit'), wrong)).toContain('exited 4, expected 5 (stated as "# exit 5")');

    const succeeded = await runSection(section('A stated failure that succeeds'), options());
    expect(succeeded.failure).toMatchObject({ exit: 0, command: { text: 'true', expectedExit: 3 } });
  });

  it('fails when the shell ends before every command ran', async () => {
    const s = section('Leaves the shell');
    const run = await runSection(s, options());
    expect(run.steps).toHaveLength(0);
    expect(run.failure?.exit).toBeUndefined();
    expect(describeFailure(s, run)).toContain('$ exit 0\n  did not finish');
  });

  it('stops a section that outlives its time and says so', async () => {
    const s = section('Hangs');
    const run = await runSection(s, options({ commandTimeoutMs: 300 }));
    expect(run.failure).toMatchObject({ command: { text: 'sleep 30' } });
    expect(describeFailure(s, run)).toContain('stopped: a command ran longer than 300 ms');
  });

  it('ends what an example left running in the background when the section ends', async () => {
    const opts = options();
    const run = await runSection(section('Leaves a process behind'), opts);
    expect(run.failure).toBeUndefined();
    const pid = Number(readFileSync(join(opts.cwd, 'pid.txt'), 'utf8'));
    await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
  });

  it('fills placeholders before a command runs', async () => {
    const [s] = extractSections('## P\n```sh\ntest "ak_XXXX" = ak_real\n```\n');
    const run = await runSection(s, options({ substitute: (t) => t.replace('ak_XXXX', 'ak_real') }));
    expect(run.failure).toBeUndefined();
  });
});

/** Whether a process runs (a zombie, killed and waiting to be reaped, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}
