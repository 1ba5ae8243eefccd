import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { fake, type Fake } from './helpers.js';

/** A plain-http server, as a local `confctl serve` is, given as a profile's --domain (https). */
let server: Server;
let domain: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  domain = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

/** A fake whose client really connects (TLS to the plain-http port). */
async function withDomainProfile(): Promise<Fake> {
  const f = fake();
  f.ctx.createClient = async (o) => createClient({ ...o, sleep: async () => {} });
  (await f.ctx.config()).save('local', { domain, key_id: 'ak_x', secret: 's' }, { activateIfNone: true });
  return f;
}

const HINT = () => `--base-url http://${domain}/api/public/v2.0`;

describe('a plain-http server given as --domain', () => {
  it('every command hints --base-url http://…', async () => {
    const f = await withDomainProfile();
    expect(await f.run(['users', 'list'])).toBe(8);
    expect(f.stderr()).toContain('TLS failed (wrong version number)');
    expect(f.stderr()).toMatch(/hint: .*answers plain http/);
    expect(f.stderr()).toContain(HINT());
  });

  it('doctor: a short cause, not the raw OpenSSL string, and the same hint', async () => {
    const f = await withDomainProfile();
    expect(await f.run(['doctor', '-o', 'json'])).toBe(8);
    const rows = JSON.parse(f.stdout()) as { check: string; detail: string }[];
    const reachable = rows.find((r) => r.check === 'reachable')!;
    expect(reachable.detail).toContain('TLS failed (wrong version number)');
    expect(reachable.detail).not.toContain('SSL routines');
    expect(f.stderr()).toContain(HINT());
  });

  it('profile add probes a domain with a port and warns; the profile is still saved', async () => {
    const f = fake();
    expect(await f.run(['profile', 'add', 'local', '--domain', domain, '--key-id', 'ak_x', '--secret', 's'])).toBe(0);
    expect(f.stderr()).toContain(`warning: ${domain} answers plain http, not https`);
    expect(f.stderr()).toContain(HINT());
    expect((await f.ctx.config()).get('local')).toMatchObject({ domain });
  });
});
