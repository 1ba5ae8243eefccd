import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BIN, type Result, Sandbox } from './harness.js';

/**
 * An export (`--all`) that fails mid-way: the rows already written stay complete and well-formed
 * line by line, the output is left unfinished (no closing `]`, so nobody mistakes it for the whole
 * list), stderr says why in one line, and the exit code tells a server error (1) from a lost
 * server (8). Retries of GET pages (5 tries, 250 ms doubling) are part of the wait.
 */
const USERS = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, email: `u${i + 1}@acme.test` }));

/** A stand-in API: pages of 2 users; page `failAt` and later answer 500. */
function stubApi(failAt: number): Promise<{ server: Server; origin: string; asked: number[] }> {
  const asked: number[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const n = Number(url.searchParams.get('page_number') ?? 1);
    asked.push(n);
    if (n >= failAt) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('An unexpected error the service.');
      return;
    }
    const data = USERS.slice((n - 1) * 2, n * 2);
    const next = new URL(url.href.replace('http://x', `http://${req.headers.host}`));
    next.searchParams.set('page_number', String(n + 1));
    const body = { message: 'OK', data, current_page: n, last_page: 10, per_page: 2, total: USERS.length, from: null, to: null, next_page_url: n < 10 ? next.href : null, prev_page_url: null };
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked })));
}

const box = new Sandbox();
let stub: Server | undefined;
afterEach(() => new Promise<void>((done) => (stub ? stub.close(() => done()) : done())));
afterAll(() => box.dispose());

describe('e2e: an export that fails mid-way', () => {
  const asKey = (origin: string) => ({ CONFCTL_BASE_URL: `${origin}/api/public/v2.0`, CONFCTL_KEY_ID: 'ak_stub', CONFCTL_KEY_SECRET: 's'.repeat(48) });

  it('a 500 on page 4: the rows of pages 1-3 as whole lines, the page tried 5 times, exit 1', async () => {
    const api = await stubApi(4);
    stub = api.server;
    const r = await box.run(['users', 'list', '--all', '--page-size', '2', '-o', 'ndjson'], { env: asKey(api.origin) });
    expect(r.code).toBe(1);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(api.asked).toEqual([1, 2, 3, 4, 4, 4, 4, 4]);
    expect(r.stderr).toMatch(/^error: .*An unexpected error the service\./m);
  });

  it('json: the array so far is left open, never closed as if complete', async () => {
    const api = await stubApi(3);
    stub = api.server;
    const r = await box.run(['users', 'list', '--all', '--page-size', '2', '-o', 'json'], { env: asKey(api.origin) });
    expect(r.code).toBe(1);
    expect(() => JSON.parse(r.stdout)).toThrow();
    expect(JSON.parse(`${r.stdout}]`).map((u: { id: number }) => u.id)).toEqual([1, 2, 3, 4]);
  });

  it('the server killed (kill -9) mid-export: whole lines so far, a network error, exit 8', async () => {
    const server = new Sandbox();
    try {
      await server.json(['admin', 'init']);
      await server.json(['admin', 'seed', '--users', '100']);
      const { child } = await server.serve(['--rate-limit', 'off']);
      const r = await new Promise<Result>((done, fail) => {
        const cli = spawn(process.execPath, [BIN, 'users', 'list', '--all', '--page-size', '1', '-o', 'ndjson'], { env: server.env(), stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        cli.stdout.on('data', (d) => {
          stdout += d;
          if (child.exitCode === null && child.signalCode === null && stdout.split('\n').length > 5) child.kill('SIGKILL');
        });
        cli.stderr.on('data', (d) => (stderr += d));
        cli.on('error', fail);
        cli.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
      });
      expect(r.code).toBe(8);
      const ids = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id);
      expect(ids.length).toBeGreaterThanOrEqual(5);
      expect(ids.length).toBeLessThan(100);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(r.stdout.endsWith('\n')).toBe(true);
      expect(r.stderr).toMatch(/^error: .*ECONNREFUSED/m);
    } finally {
      await server.dispose();
    }
  }, 60_000);
});
