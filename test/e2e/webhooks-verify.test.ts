import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';
import { type Delivery, rawRequest, signedDelivery } from './webhooks-helpers.js';

const SECRET = 'whsec_e2e_verify_secret';

let sandbox: Sandbox;
afterEach(() => sandbox?.dispose());

/** Writes `d` as a raw request capture and answers its path. */
function capture(d: Delivery, name = 'delivery.http'): string {
  const file = join(sandbox.root, name);
  writeFileSync(file, rawRequest(d));
  return file;
}

describe('confctl webhooks verify', () => {
  it('says a fresh, authentic capture is so (exit 0), from a file or stdin', async () => {
    sandbox = new Sandbox();
    const d = signedDelivery(SECRET, { ageSeconds: 30 });
    const file = capture(d);
    const r = await sandbox.run(['webhooks', 'verify', '--secret', SECRET, file]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(new RegExp(`^authentic and fresh \\(3\\d s old\\): ${d.id} at ${d.timestamp}\\n$`));
    const piped = await sandbox.run(['webhooks', 'verify', '--secret', SECRET], { input: rawRequest(d).toString('latin1') });
    expect(piped.code, piped.stderr).toBe(0);
  });

  it('refuses another secret and a 6-minute-old capture with exit 6 and the reason', async () => {
    sandbox = new Sandbox();
    const forged = await sandbox.run(['webhooks', 'verify', '--secret', SECRET, capture(signedDelivery('whsec_other'))]);
    expect(forged).toEqual({ code: 6, stdout: '', stderr: 'error: not valid: signature does not match: wrong secret, or the body or headers were changed\n' });
    const stale = signedDelivery(SECRET, { ageSeconds: 360 });
    const r = await sandbox.run(['webhooks', 'verify', '--secret', SECRET, capture(stale)]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^error: not valid: timestamp \S+ is 36\d s old, more than the 300 s allowed\n$/);
    const unchecked = await sandbox.run(['webhooks', 'verify', '--secret', SECRET, '--max-age', '0', capture(stale)]);
    expect(unchecked).toEqual({ code: 0, stderr: '', stdout: `authentic (age not checked): ${stale.id} at ${stale.timestamp}\n` });
    expect((await sandbox.run(['webhooks', 'verify', '--secret', SECRET, '--max-age', '600', capture(stale)])).code).toBe(0);
  });

  it('reads --header flags and a --body file as bytes', async () => {
    sandbox = new Sandbox();
    const d = signedDelivery(SECRET, { body: Buffer.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0xe9, 0x7d]) });
    const body = join(sandbox.root, 'body.bin');
    writeFileSync(body, d.body);
    const headers = Object.entries(d.headers).flatMap(([k, v]) => ['--header', `${k}: ${v}`]);
    expect((await sandbox.run(['webhooks', 'verify', '--secret', SECRET, ...headers, '--body', body])).code).toBe(0);
    writeFileSync(body, Buffer.concat([d.body, Buffer.from('\n')]));
    expect((await sandbox.run(['webhooks', 'verify', '--secret', SECRET, ...headers, '--body', body])).code).toBe(6);
  });

  it('takes the secret from CONFCTL_WEBHOOK_SECRET or --secret-file', async () => {
    sandbox = new Sandbox();
    const file = capture(signedDelivery(SECRET));
    expect((await sandbox.run(['webhooks', 'verify', file], { env: { CONFCTL_WEBHOOK_SECRET: SECRET } })).code).toBe(0);
    const secretFile = join(sandbox.root, 'hook.secret');
    writeFileSync(secretFile, `${SECRET}\n`);
    expect((await sandbox.run(['webhooks', 'verify', '--secret-file', secretFile, file])).code).toBe(0);
  });

  it('is a usage error (exit 2) without a secret, with a mangled capture, or with input from two places', async () => {
    sandbox = new Sandbox();
    const file = capture(signedDelivery(SECRET));
    const broken = join(sandbox.root, 'broken.http');
    writeFileSync(broken, 'POST / HTTP/1.1\r\nContent-Length: 500\r\n\r\n{}');
    for (const [args, message] of [
      [[file], 'verify needs the secret'],
      [['--secret', SECRET, broken], 'cannot read the delivery: Content-Length is 500 but the capture has 2 body bytes'],
      [['--secret', SECRET, join(sandbox.root, 'missing.http')], 'cannot read the capture'],
      [['--secret', SECRET, file, '--body', file, '--header', 'A: b'], 'not both'],
      [['--secret', SECRET, '--body', file], '--header and --body go together'],
      [['--secret', SECRET, '--header', 'no colon', '--body', file], "not a header line 'Name: value'"],
      [['--secret', SECRET], 'cannot read the delivery: the capture has no header lines'],
    ] as const) {
      const r = await sandbox.run(['webhooks', 'verify', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(message);
    }
  });
});
