import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AdminFake, adminFake } from './admin-helpers.js';

let f: AdminFake;
afterEach(() => f.dispose());

describe('admin webhooks add / list / remove / rotate-secret', () => {
  it('adds a destination with a new secret printed once and stored, and lists it without the secret', async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'tenants', 'add', 'acme.test']);
    const added = await f.json(['admin', 'webhooks', 'add', 'http://127.0.0.1:8090/hook', '--events', 'events.created,events.deleted']);
    expect(added).toMatchObject({ tenant: 'localhost', url: 'http://127.0.0.1:8090/hook', events: ['events.created', 'events.deleted'], secret_rotated_at: null });
    expect(added.id).toMatch(/^wh_[0-9A-Za-z]{24}$/);
    expect(added.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const stored = f.inspect(({ store }) => store.webhookDestinations.get(added.id));
    expect(stored?.secret).toBe(added.secret);
    await f.json(['admin', 'webhooks', 'add', 'https://hooks.acme.test/', '--tenant', 'acme.test', '--secret', 'whsec_mine']);
    expect(f.inspect(({ store }) => store.webhookDestinations.list(2).map((d) => d.secret))).toEqual(['whsec_mine']);

    const before = f.stdout().length;
    const listed = await f.json<Record<string, unknown>[]>(['admin', 'webhooks', 'list']);
    expect(listed.map((d) => [d.tenant, d.url, d.events])).toEqual([
      ['localhost', 'http://127.0.0.1:8090/hook', ['events.created', 'events.deleted']],
      ['acme.test', 'https://hooks.acme.test/', 'all'],
    ]);
    expect(f.stdout().slice(before)).not.toContain('whsec_');
    expect(await f.json(['admin', 'webhooks', 'list', '--tenant', 'acme.test', '--fields', 'url'])).toEqual([{ url: 'https://hooks.acme.test/' }]);
  });

  it('prints the secret as plain lines on a terminal and takes it from --secret-file', async () => {
    f = adminFake({ tty: true });
    await f.json(['admin', 'init', '--no-profile']);
    const file = join(f.dataDir, '..', 'secret');
    writeFileSync(file, 'whsec_fromfile\n');
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/', '--secret-file', file])).toBe(0);
    expect(f.stdout()).toMatch(/Added webhook destination wh_\w+ for localhost\nURL: https:\/\/h.example.com\/\nEvents: every event type\nSecret: whsec_fromfile {3}\(shown only now\)\n/);
    expect(await f.run(['admin', 'webhooks', 'list'])).toBe(0);
    expect(f.stdout().split('(shown only now)')[1]).not.toContain('whsec_');
  });

  it('refuses plain http to another host, unknown types and both secret flags, writing nothing', async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'webhooks', 'add', 'http://hooks.example.com/'])).toBe(6);
    expect(f.stderr()).toContain("http:// is allowed only for loopback hosts (localhost, 127.0.0.1, ::1), not 'hooks.example.com'; use https://");
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/', '--events', 'events.created,nope'])).toBe(6);
    expect(f.stderr()).toContain("unknown event type 'nope'");
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/', '--secret', 'a', '--secret-file', 'b'])).toBe(2);
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/', '--tenant', 'nope.test'])).toBe(4);
    expect(f.inspect(({ store }) => store.webhookDestinations.list())).toEqual([]);
  });

  it('rotates a secret (printed once, stored) and removes a destination; unknown ids are exit 4; dry runs change nothing', async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    const { id, secret } = await f.json(['admin', 'webhooks', 'add', 'https://h.example.com/']);
    expect(await f.run(['admin', 'webhooks', 'rotate-secret', id, '--dry-run'])).toBe(0);
    expect(f.stdout()).toContain(`would replace the secret of webhook destination ${id} (https://h.example.com/)`);
    expect(f.inspect(({ store }) => store.webhookDestinations.get(id)?.secret)).toBe(secret);
    const rotated = await f.json(['admin', 'webhooks', 'rotate-secret', id]);
    expect(rotated.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.secret).not.toBe(secret);
    const stored = f.inspect(({ store }) => store.webhookDestinations.get(id));
    expect(stored?.secret).toBe(rotated.secret);
    expect(stored?.secret_rotated_at).not.toBeNull();

    expect(await f.run(['admin', 'webhooks', 'remove', id, '--dry-run'])).toBe(0);
    expect(f.inspect(({ store }) => store.webhookDestinations.list().length)).toBe(1);
    expect(await f.json(['admin', 'webhooks', 'remove', id])).toMatchObject({ id, removed: true });
    expect(await f.json(['admin', 'webhooks', 'list'])).toEqual([]);
    expect(await f.run(['admin', 'webhooks', 'remove', id])).toBe(4);
    expect(f.stderr()).toContain(`no webhook destination '${id}'`);
    expect(await f.run(['admin', 'webhooks', 'rotate-secret', id])).toBe(4);
  });
});
