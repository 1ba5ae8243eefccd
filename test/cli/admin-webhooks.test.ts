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

  it('prints a secret it made as plain lines on a terminal, once', async () => {
    f = adminFake({ tty: true });
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/'])).toBe(0);
    expect(f.stdout()).toMatch(/Added webhook destination wh_\w+ for localhost\nURL: https:\/\/h.example.com\/\nEvents: every event type\nSecret: whsec_\w+ {3}\(shown only now\)\n/);
    expect(await f.run(['admin', 'webhooks', 'list'])).toBe(0);
    expect(f.stdout().split('(shown only now)')[1]).not.toContain('whsec_');
  });

  it('takes a secret from --secret-file or --secret without echoing it (add and rotate-secret, every format)', async () => {
    f = adminFake({ tty: true });
    await f.json(['admin', 'init', '--no-profile']);
    const file = join(f.dataDir, '..', 'secret');
    writeFileSync(file, 'whsec_fromfile\n');
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/', '--secret-file', file])).toBe(0);
    expect(f.stdout()).toMatch(/\nSecret: the one given \(not shown\)\n/);
    const json = await f.json(['admin', 'webhooks', 'add', 'https://h2.example.com/', '--secret', 'whsec_given']);
    expect(json).not.toHaveProperty('secret');
    expect(await f.run(['admin', 'webhooks', 'rotate-secret', json.id, '--secret-file', file])).toBe(0);
    expect(f.stdout()).not.toContain('whsec_fromfile');
    expect(f.stdout()).not.toContain('whsec_given');
    const stored = f.inspect(({ store }) => store.webhookDestinations.list().map((d) => d.secret));
    expect(stored.sort()).toEqual(['whsec_fromfile', 'whsec_fromfile']);
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

describe('admin webhooks deliveries / redeliver', () => {
  it('lists deliveries with their attempts, --failed and --tenant narrow it, and redeliver queues one again', async () => {
    f = adminFake();
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'tenants', 'add', 'acme.test']);
    const { id: dest } = await f.json(['admin', 'webhooks', 'add', 'https://h.example.com/']);
    await f.json(['admin', 'webhooks', 'add', 'https://acme.example.com/', '--tenant', 'acme.test']);
    const ids = f.inspect(({ store }) => {
      store.webhookOutbox.enqueue(1, 'events.created', { id: 1, calendar_id: 1 });
      store.webhookOutbox.enqueue(1, 'events.deleted', { id: 1, calendar_id: 1 });
      store.webhookOutbox.enqueue(2, 'events.created', { id: 9, calendar_id: 3 });
      const [older, newer] = store.webhookOutbox.list({ tenantId: 1, limit: 10 }).reverse();
      store.webhookOutbox.settle(older.id, { at: '2026-01-01T00:00:00.000Z', status_code: 500, error: null }, { status: 'failed' });
      store.webhookOutbox.settle(newer.id, { at: '2026-01-01T00:00:01.000Z', status_code: null, error: 'ECONNREFUSED: connect ECONNREFUSED' }, { retryAt: '2026-01-01T00:00:11.000Z' });
      return { older: older.id, newer: newer.id };
    });
    const mine = await f.json<Record<string, unknown>[]>(['admin', 'webhooks', 'deliveries', '--tenant', 'localhost']);
    expect(mine.map((d) => [d.id, d.type, d.status, d.last_result, d.next_attempt_at, d.destination_id])).toEqual([
      [ids.newer, 'events.deleted', 'pending', 'ECONNREFUSED: connect ECONNREFUSED', '2026-01-01T00:00:11.000Z', dest],
      [ids.older, 'events.created', 'failed', 500, null, dest],
    ]);
    expect(mine[1].attempts).toEqual([{ at: '2026-01-01T00:00:00.000Z', status_code: 500, error: null }]);
    expect((await f.json<unknown[]>(['admin', 'webhooks', 'deliveries'])).length).toBe(3);
    expect((await f.json<{ id: number }[]>(['admin', 'webhooks', 'deliveries', '--failed'])).map((d) => d.id)).toEqual([ids.older]);

    expect(await f.json(['admin', 'webhooks', 'redeliver', String(ids.older)])).toMatchObject({ id: ids.older, status: 'pending', event_id: mine[1].event_id });
    expect(await f.json(['admin', 'webhooks', 'deliveries', '--failed'])).toEqual([]);
    expect(await f.run(['admin', 'webhooks', 'redeliver', '999'])).toBe(4);
    await f.json(['admin', 'webhooks', 'remove', dest]);
    expect(await f.run(['admin', 'webhooks', 'redeliver', String(ids.older)])).toBe(5);
    expect(f.stderr()).toContain('went to a destination that was removed');
  });
});
