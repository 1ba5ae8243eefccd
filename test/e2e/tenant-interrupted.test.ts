import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, BIN, type Result, Sandbox } from './harness.js';

/**
 * A server stopped in the middle of `apply`: the changes not made are reported and written as
 * the remaining plan; once the server is back, applying that plan finishes the job and makes
 * nothing twice (a change the server made before it died is seen as already made). On SQLite
 * against `serve`, and on PostgreSQL against `serve --strict`, at the same time: each waits mostly
 * on its own server's rate limit.
 */
const RUNS: { backend: Backend; serve: string; strict: string[] }[] = [
  { backend: 'sqlite', serve: 'serve', strict: [] },
  { backend: 'postgres', serve: 'serve --strict', strict: ['--strict'] },
];

describe.concurrent.each(RUNS)('e2e: apply when the server stops midway ($serve on $backend)', ({ backend, strict }) => {
  const box = new Sandbox(backend);
  const dir = join(box.root, 'tenant');
  const planFile = join(box.root, 'plan.json');
  const TOTAL = 20;
  const email = (i: number) => `stop${i}@x.example`;

  beforeAll(async () => {
    await box.json(['admin', 'init']);
    mkdirSync(dir);
  }, 90_000);
  afterAll(() => box.dispose());

  /** Runs the bin in the background, answering its result when it exits. */
  function runInBackground(args: string[]): Promise<Result> {
    const child = spawn(process.execPath, [BIN, ...args], { env: box.env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    return new Promise((done) => child.on('close', (code) => done({ code: code ?? -1, stdout, stderr })));
  }

  it('the rest is written; a second apply finishes it and nothing is applied twice', async () => {
    // Two requests a second, so the apply is still running when the server is stopped.
    const first = await box.serve(['--rate-limit', '2', ...strict]);
    writeFileSync(join(dir, 'customers.yaml'), Array.from({ length: TOTAL }, (_, i) => `- {email: ${email(i)}, first_name: S${i}, last_name: Stop}\n`).join(''));
    expect((await box.run(['plan', '-f', dir, '--out', planFile])).code).toBe(0);

    const applying = runInBackground(['apply', planFile, '--concurrency', '1']);
    const store = await box.openStore();
    try {
      const [tenant] = await store.tenants.list();
      // Wait (on the data, not the clock) until a few customers are made, then stop the server hard.
      // One request at a time: the fifth stored means the first four were answered, so applied >= 4
      // (the fourth stored alone may not have been answered yet when the server dies).
      while (!(await store.customers.findByEmail(tenant.id, email(4)))) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await store.close();
    }
    first.child.kill('SIGKILL');
    const interrupted = await applying;
    expect(interrupted.code).toBe(8);
    const m = /error: applied (\d+), failed (\d+), skipped 0\n/.exec(interrupted.stderr);
    expect(m, interrupted.stderr).not.toBeNull();
    const [appliedFirst, failed] = [Number(m![1]), Number(m![2])];
    expect(appliedFirst).toBeGreaterThanOrEqual(4);
    expect(appliedFirst + failed).toBe(TOTAL);
    const remainingFile = join(box.root, 'plan.remaining.json');
    expect(JSON.parse(readFileSync(remainingFile, 'utf8')).changes).toHaveLength(failed);

    await box.serve(['--rate-limit', 'off', ...strict]);
    const finished = await box.run(['apply', remainingFile]);
    expect(finished.code, finished.stderr).toBe(0);
    const n = /applied (\d+), failed 0, skipped 0(?: \((\d+) already made before\))?\n/.exec(finished.stderr);
    expect(n, finished.stderr).not.toBeNull();
    expect(appliedFirst + Number(n![1]) + Number(n![2] ?? 0)).toBe(TOTAL);

    const stored = await box.json<any[]>(['customers', 'list', '--filter', 'last_name=Stop', '--page-size', '100']);
    expect(stored.map((c) => c.email).sort()).toEqual(Array.from({ length: TOTAL }, (_, i) => email(i)).sort());
    const again = await box.run(['plan', '-f', dir, '-o', 'json']);
    expect(JSON.parse(again.stdout).changes).toEqual([]);
  }, 90_000);
});
