import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * deploy/nginx.conf, run as written (only its three ports replaced by free ones) in front of two
 * `serve` instances on one data directory: requests reach both, the client's Host chooses the
 * tenant, signed links carry nginx's origin and download through it, and when one instance drains
 * the other answers everything.
 */
const hasNginx = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v nginx'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function listening(port: number, nginx: ChildProcess, log: () => string): Promise<void> {
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited ${nginx.exitCode}: ${log()}`);
    const ok = await new Promise<boolean>((done) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (ok) return;
    await new Promise((done) => setTimeout(done, 25));
  }
}

describe.skipIf(!hasNginx).each(BACKENDS)('deploy/nginx.conf in front of two instances on %s', (backend) => {
  const box = new Sandbox(backend);
  const prefix = mkdtempSync(join(tmpdir(), 'confctl-nginx-'));
  let nginx: ChildProcess;
  let origin: string;
  let headers: Record<string, string>;
  let a: Awaited<ReturnType<Sandbox['serve']>>;
  let b: Awaited<ReturnType<Sandbox['serve']>>;

  beforeAll(async () => {
    a = await box.serve(['--demo', '--trust-proxy', '--rate-limit', 'off', '--log', 'json', '--no-profile']);
    b = await box.serve(['--trust-proxy', '--rate-limit', 'off', '--log', 'json', '--no-profile']);
    headers = { 'x-access-key-id': /key id: (\S+)/.exec(a.output())![1], 'x-access-key-secret': /secret: (\S+)/.exec(a.output())![1] };
    const port = await freePort();
    const config = readFileSync(resolve(__dirname, '../../deploy/nginx.conf'), 'utf8')
      .replace('server 127.0.0.1:8081', `server 127.0.0.1:${new URL(a.baseUrl).port}`)
      .replace('server 127.0.0.1:8082', `server 127.0.0.1:${new URL(b.baseUrl).port}`)
      .replace('listen 127.0.0.1:8080', `listen 127.0.0.1:${port}`);
    // As root, nginx's workers run as nobody, who must reach the prefix.
    chmodSync(prefix, 0o755);
    writeFileSync(join(prefix, 'nginx.conf'), config);
    let log = '';
    nginx = spawn('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    nginx.stderr!.on('data', (d) => (log += d));
    await listening(port, nginx, () => log);
    origin = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((done) => nginx.once('exit', done));
      nginx.kill('SIGTERM');
      await exited;
    }
    rmSync(prefix, { recursive: true, force: true });
    await box.dispose();
  });

  /** Requests of `path` through nginx that reached instance `x` (its JSON access log). */
  const reached = (x: typeof a, path: string) => x.output().split('\n').filter((l) => l.includes(`"path":"${path}"`)).length;

  it('spreads requests over both instances, each answered in full', async () => {
    const path = '/api/public/v2.0/users/1';
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${origin}${path}`, { headers });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { id: number } }).data.id).toBe(1);
    }
    expect(reached(a, path)).toBeGreaterThan(0);
    expect(reached(b, path)).toBeGreaterThan(0);
    expect(reached(a, path) + reached(b, path)).toBe(8);
  });

  it("passes the client's Host on: a host of no tenant is 404 behind nginx too", async () => {
    // fetch() may not set Host; node:http may.
    const answer = await new Promise<{ status: number; body: string }>((done, fail) => {
      const req = http.get(`${origin}/api/public/v2.0/users/1`, { headers: { ...headers, host: 'no-tenant.example' } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', fail);
    });
    expect(answer).toEqual({ status: 404, body: 'Unknown tenant.' });
  });

  it("signs recording links with nginx's origin, and they download through it", async () => {
    const recordings = (await (await fetch(`${origin}/api/public/v2.0/online_conferences/4/recordings`, { headers })).json()) as { data: { id: number; status: number }[] };
    const finished = recordings.data.find((r) => r.status === 3)!;
    const link = (await (await fetch(`${origin}/api/public/v2.0/online_conferences/4/recordings/${finished.id}/url`, { headers })).json()) as { data: { url: string } };
    expect(link.data.url.startsWith(`${origin}/media/`)).toBe(true);
    const download = await fetch(link.data.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).subarray(0, 4).toString()).toBe('RIFF');
  });

  it('keeps answering every request while one instance drains and after it is gone', async () => {
    const exited = new Promise((done) => b.child.once('exit', done));
    b.child.kill('SIGTERM');
    const during = await fetch(`${origin}/readyz`);
    expect([200, 503]).toContain(during.status);
    await exited;
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${origin}/api/public/v2.0/users/2`, { headers });
      expect(res.status).toBe(200);
    }
  });
});
