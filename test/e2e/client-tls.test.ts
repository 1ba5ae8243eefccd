/**
 * The built CLI over HTTPS (node:https): a server with a self-signed certificate is trusted through
 * NODE_EXTRA_CA_CERTS, and refused without it, at once (no retries) and as a network error (exit 8).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type Result, Sandbox } from './harness.js';

/** The certificate is made with openssl (.ci/run installs it when missing). */
const OPENSSL = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!OPENSSL)(`e2e: the client over HTTPS${OPENSSL ? '' : ' (skipped: openssl is not installed)'}`, () => {
  const box = new Sandbox();
  const cert = join(box.root, 'cert.pem');
  let server: Server;
  let baseUrl: string;
  const paths: string[] = [];

  beforeAll(async () => {
    const key = join(box.root, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'OK', data: { id: 42, name: 'Ada Lovelace' } }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/v2.0`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    await box.dispose();
  });

  /** `confctl users get 42 -o json` against the server, NODE_EXTRA_CA_CERTS set to `ca` or unset. */
  function getUser(ca: string | undefined): Promise<Result> {
    const env = box.env({ CONFCTL_BASE_URL: baseUrl, CONFCTL_KEY_ID: 'ak_x', CONFCTL_KEY_SECRET: 'not-in-output' });
    delete env.NODE_EXTRA_CA_CERTS;
    if (ca) env.NODE_EXTRA_CA_CERTS = ca;
    return new Promise((done, fail) => {
      const child = spawn(process.execPath, [BIN, 'users', 'get', '42', '-o', 'json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', fail);
      child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    });
  }

  it('trusts a certificate given in NODE_EXTRA_CA_CERTS', async () => {
    paths.length = 0;
    const r = await getUser(cert);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: 42, name: 'Ada Lovelace' });
    expect(paths).toEqual(['/api/public/v2.0/users/42']);
  });

  it('refuses it otherwise: exit 8 naming the cause, no request reached the server, the secret not shown', async () => {
    paths.length = 0;
    const r = await getUser(undefined);
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(/self[- ]signed/i);
    expect(r.stderr).not.toContain('not-in-output');
    expect(paths).toEqual([]);
  });
});
