import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';
import { closedPort, type Listener, listen, post, signedDelivery, target } from './webhooks-helpers.js';

const SECRET = 'whsec_e2e_listen_secret';
/** The HTTPS test makes its self-signed certificate with openssl (.ci/run installs it when missing). */
const OPENSSL = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

let sandbox: Sandbox;
const listeners: Listener[] = [];
const start = async (args: string[], env: Record<string, string> = {}) => {
  const l = await listen(sandbox, args, env);
  listeners.push(l);
  return l;
};

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => (l.child.exitCode === null ? l.stop() : null)));
  await sandbox?.dispose();
});

const lines = (text: string) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe('confctl webhooks listen', () => {
  it('answers 200 to a signed delivery and prints it as NDJSON in a pipe; SIGTERM stops it (exit 0)', async () => {
    sandbox = new Sandbox();
    const l = await start(['--secret', SECRET]);
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const d = signedDelivery(SECRET, { event: 'meeting_links.scheduled', data: { id: 3, event_id: 9, calendar_id: 1, name: 'Ana', email: 'ana@example.com', contact_number: null } });
    expect(await post(`${l.url}any/path`, d)).toEqual({ status: 200, text: 'OK\n' });
    expect(await l.stop('SIGTERM')).toBe(0);
    expect(lines(l.stdout())).toEqual([
      { id: d.id, timestamp: d.timestamp, event: 'meeting_links.scheduled', data: { id: 3, event_id: 9, calendar_id: 1, name: 'Ana', email: 'ana@example.com', contact_number: null }, status: 200 },
    ]);
    expect(l.stderr()).toContain('Stopped.');
    expect(l.stderr()).not.toContain(SECRET);
  });

  it('rejects a delivery signed with another secret, or 6 minutes old, with 400 and the reason (body and stderr)', async () => {
    sandbox = new Sandbox();
    const l = await start(['--secret', SECRET]);
    const forged = signedDelivery('whsec_someone_else');
    const stale = signedDelivery(SECRET, { ageSeconds: 360 });
    const forgedAnswer = await post(l.url, forged);
    expect(forgedAnswer.status).toBe(400);
    expect(forgedAnswer.text).toBe('Rejected: signature does not match: wrong secret, or the body or headers were changed.\n');
    const staleAnswer = await post(l.url, stale);
    expect(staleAnswer.status).toBe(400);
    expect(staleAnswer.text).toMatch(/^Rejected: timestamp \S+ is 36\d s old, more than the 300 s allowed\.\n$/);
    const unsigned = await post(l.url, { ...stale, headers: { 'Content-Type': 'application/json' } });
    expect(unsigned).toEqual({ status: 400, text: 'Rejected: missing headers X-Webhook-Id, X-Webhook-Timestamp, X-Webhook-Signature.\n' });
    expect(await post(l.url, signedDelivery(SECRET), { method: 'PUT' })).toMatchObject({ status: 405 });
    expect(await l.stop()).toBe(0);
    expect(l.stdout()).toBe('');
    expect(l.stderr()).toContain(`rejected ${forged.id}: signature does not match`);
    expect(l.stderr()).toMatch(new RegExp(`rejected ${stale.id}: timestamp \\S+ is 36\\d s old`));
  });

  it('with --max-age 0 accepts an old delivery; the secret comes from --secret-file or CONFCTL_WEBHOOK_SECRET', async () => {
    sandbox = new Sandbox();
    const file = join(sandbox.root, 'hook.secret');
    writeFileSync(file, `${SECRET}\n`);
    const fromFile = await start(['--secret-file', file, '--max-age', '0']);
    expect((await post(fromFile.url, signedDelivery(SECRET, { ageSeconds: 3600 }))).status).toBe(200);
    const fromEnv = await start([], { CONFCTL_WEBHOOK_SECRET: SECRET });
    expect((await post(fromEnv.url, signedDelivery(SECRET))).status).toBe(200);
    expect((await post(fromEnv.url, signedDelivery(SECRET, { ageSeconds: 3600 }))).status).toBe(400);
    expect(fromEnv.stderr()).not.toContain('made one');
  });

  it('without a secret makes one, prints it on stderr, and verifies with it', async () => {
    sandbox = new Sandbox();
    const l = await start([]);
    const made = /made one.*\n {2}(whsec_[0-9a-f]{64})\n/.exec(l.stderr());
    expect(made, l.stderr()).not.toBeNull();
    expect((await post(l.url, signedDelivery(made![1]))).status).toBe(200);
    expect((await post(l.url, signedDelivery(SECRET))).status).toBe(400);
    expect(l.stdout()).not.toContain(made![1]);
  });

  it('--forward-to passes headers and body bytes on unchanged and answers with the target status', async () => {
    sandbox = new Sandbox();
    const t = await target(202);
    try {
      const l = await start(['--secret', SECRET, '--forward-to', t.url]);
      const body = Buffer.from('{"event":"events.updated","data":{"id":5,"calendar_id":2},"note":"Café ☕"}  ');
      const d = signedDelivery(SECRET, { body });
      const answer = await post(`${l.url}ignored`, d, { extra: { 'User-Agent': 'hosted-sender/1.0', 'X-Custom': 'kept' } });
      expect(answer).toEqual({ status: 202, text: '{"handled":true}' });
      expect(t.received).toHaveLength(1);
      const got = t.received[0];
      expect(got.method).toBe('POST');
      expect(got.url).toBe('/hooks/in?x=1');
      expect(got.body.equals(body)).toBe(true);
      for (const [name, value] of Object.entries({ ...d.headers, 'User-Agent': 'hosted-sender/1.0', 'X-Custom': 'kept' })) {
        expect(got.headers[name.toLowerCase()], name).toBe(value);
      }
      // The names keep their case and order, as the sender wrote them.
      const names = got.rawHeaders.filter((_, i) => i % 2 === 0);
      expect(names.filter((n) => /^X-Webhook-/.test(n))).toEqual(['X-Webhook-Id', 'X-Webhook-Timestamp', 'X-Webhook-Signature']);
      expect(got.headers.host).toBe(new URL(t.url).host);
      expect(got.headers['content-length']).toBe(String(body.length));

      expect((await post(l.url, signedDelivery('whsec_forged'))).status).toBe(400);
      expect(t.received).toHaveLength(1);
      await l.stop();
      expect(lines(l.stdout())).toEqual([{ id: d.id, timestamp: d.timestamp, event: 'events.updated', data: { id: 5, calendar_id: 2 }, status: 202 }]);
    } finally {
      await t.close();
    }
  });

  it('--forward-to an unreachable target answers 502 (so the sender retries) and says why', async () => {
    sandbox = new Sandbox();
    const port = await closedPort();
    const l = await start(['--secret', SECRET, '--forward-to', `http://127.0.0.1:${port}/hooks`]);
    const d = signedDelivery(SECRET);
    const answer = await post(l.url, d);
    expect(answer.status).toBe(502);
    expect(answer.text).toContain('ECONNREFUSED');
    await l.stop();
    expect(l.stderr()).toContain(`${d.id}: forward to http://127.0.0.1:${port}/hooks failed: ECONNREFUSED`);
    expect(lines(l.stdout())).toMatchObject([{ id: d.id, status: 502 }]);
  });

  it.skipIf(!OPENSSL)(`serves HTTPS with --cert and --key (a self-signed certificate made here)${OPENSSL ? '' : ' (skipped: openssl is not installed)'}`, async () => {
    sandbox = new Sandbox();
    const cert = join(sandbox.root, 'cert.pem');
    const key = join(sandbox.root, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const l = await start(['--secret', SECRET, '--cert', cert, '--key', key]);
    expect(l.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    const d = signedDelivery(SECRET);
    expect(await post(l.url, d, { ca: readFileSync(cert) })).toEqual({ status: 200, text: 'OK\n' });
    expect((await post(l.url, signedDelivery(SECRET, { ageSeconds: 360 }), { ca: readFileSync(cert) })).status).toBe(400);
    expect(await l.stop('SIGINT')).toBe(0);
    expect(lines(l.stdout())).toMatchObject([{ id: d.id, status: 200 }]);
  });

  it('refuses bad flags with exit 2 before listening', async () => {
    sandbox = new Sandbox();
    for (const [args, message] of [
      [['--cert', 'c.pem'], '--cert and --key go together'],
      [['--secret', 'a', '--secret-file', 'f'], 'give --secret or --secret-file, not both'],
      [['--forward-to', 'ftp://x'], '--forward-to takes an http or https URL'],
      [['--max-age', '-1'], '--max-age must be a whole number'],
      [['-o', 'csv'], 'listen prints -o table or -o ndjson'],
      [['--secret-file', join(sandbox.root, 'missing')], 'cannot read --secret-file'],
    ] as const) {
      const r = await sandbox.run(['webhooks', 'listen', '--port', '0', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(message);
    }
  });
});
