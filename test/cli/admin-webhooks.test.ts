import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../e2e/harness.js';
import { adminDatabaseFixture } from './admin-database-fixture.js';

/**
 * `admin webhooks|events|meeting-links` on either store, each case on a data directory
 * (`CONFCTL_DATA`) and on a PostgreSQL database (`CONFCTL_DATABASE_URL`): the same output, the
 * changes and their deliveries written to the store. What only a database has (an unreachable
 * server) is in the last block.
 */
const { admin, adminOn, schemaExists } = adminDatabaseFixture();

describe.each(BACKENDS)('admin webhooks add / list / remove / rotate-secret (%s)', (backend) => {
  it('adds a destination with a new secret printed once and stored, and lists it without the secret', async () => {
    const f = await adminOn(backend);
    const local = admin();
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'tenants', 'add', 'acme.test']);
    await local.json(['admin', 'init', '--no-profile']);
    const added = await f.json(['admin', 'webhooks', 'add', 'http://127.0.0.1:8090/hook', '--events', 'events.created,events.deleted']);
    const localAdded = await local.json(['admin', 'webhooks', 'add', 'http://127.0.0.1:8090/hook', '--events', 'events.created,events.deleted']);
    expect(Object.keys(added)).toEqual(Object.keys(localAdded));
    expect(added).toMatchObject({ tenant: 'localhost', url: 'http://127.0.0.1:8090/hook', events: ['events.created', 'events.deleted'], secret_rotated_at: null });
    expect(added.id).toMatch(/^wh_[0-9A-Za-z]{24}$/);
    expect(added.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const stored = await f.store((store) => store.webhookDestinations.get(added.id));
    expect(stored?.secret).toBe(added.secret);
    await f.json(['admin', 'webhooks', 'add', 'https://hooks.acme.test/', '--tenant', 'acme.test', '--secret', 'whsec_mine']);
    expect(await f.store(async (store) => (await store.webhookDestinations.list(2)).map((d) => d.secret))).toEqual(['whsec_mine']);

    const before = f.stdout().length;
    const listed = await f.json<Record<string, unknown>[]>(['admin', 'webhooks', 'list']);
    expect(listed.map((d) => [d.tenant, d.url, d.events])).toEqual([
      ['localhost', 'http://127.0.0.1:8090/hook', ['events.created', 'events.deleted']],
      ['acme.test', 'https://hooks.acme.test/', 'all'],
    ]);
    expect(f.stdout().slice(before)).not.toContain('whsec_');
    expect(await f.json(['admin', 'webhooks', 'list', '--tenant', 'acme.test', '--fields', 'url'])).toEqual([{ url: 'https://hooks.acme.test/' }]);
    // --data names another data directory: the environment's store is not used; --data and --database together are exit 2.
    expect((await f.json<unknown[]>(['admin', 'webhooks', 'list', '--data', local.dataDir])).length).toBe(1);
    expect(await f.run(['admin', 'webhooks', 'list', '--data', local.dataDir, '--database', f.url ?? 'postgres://confctl@db.invalid/confctl'])).toBe(2);
  });

  it('prints a secret it made as plain lines on a terminal, once', async () => {
    const f = await adminOn(backend, { tty: true });
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/'])).toBe(0);
    expect(f.stdout()).toMatch(/Added webhook destination wh_\w+ for localhost\nURL: https:\/\/h.example.com\/\nEvents: every event type\nSecret: whsec_\w+ {3}\(shown only now\)\n/);
    expect(await f.run(['admin', 'webhooks', 'list'])).toBe(0);
    expect(f.stdout().split('(shown only now)')[1]).not.toContain('whsec_');
  });

  it('takes a secret from --secret-file or --secret without echoing it (add and rotate-secret, every format)', async () => {
    const f = await adminOn(backend, { tty: true });
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
    const stored = await f.store(async (store) => (await store.webhookDestinations.list()).map((d) => d.secret));
    expect(stored.sort()).toEqual(['whsec_fromfile', 'whsec_fromfile']);
  });

  it('refuses plain http to another host, unknown types and both secret flags, writing nothing', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    expect(await f.run(['admin', 'webhooks', 'add', 'http://hooks.example.com/'])).toBe(6);
    expect(f.stderr()).toContain("http:// is allowed only for loopback hosts (localhost, 127.0.0.1, ::1), not 'hooks.example.com'; use https://");
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/', '--events', 'events.created,nope'])).toBe(6);
    expect(f.stderr()).toContain("unknown event type 'nope'");
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/', '--secret', 'a', '--secret-file', 'b'])).toBe(2);
    expect(await f.run(['admin', 'webhooks', 'add', 'https://h.example.com/', '--tenant', 'nope.test'])).toBe(4);
    expect(await f.store((store) => store.webhookDestinations.list())).toEqual([]);
  });

  it('rotates a secret (printed once, stored) and removes a destination; unknown ids are exit 4; dry runs change nothing', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    const { id, secret } = await f.json(['admin', 'webhooks', 'add', 'https://h.example.com/']);
    expect(await f.run(['admin', 'webhooks', 'rotate-secret', id, '--dry-run'])).toBe(0);
    expect(f.stdout()).toContain(`would replace the secret of webhook destination ${id} (https://h.example.com/)`);
    expect(await f.store(async (store) => (await store.webhookDestinations.get(id))?.secret)).toBe(secret);
    const rotated = await f.json(['admin', 'webhooks', 'rotate-secret', id]);
    expect(rotated.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(rotated.secret).not.toBe(secret);
    const stored = await f.store((store) => store.webhookDestinations.get(id));
    expect(stored?.secret).toBe(rotated.secret);
    expect(stored?.secret_rotated_at).not.toBeNull();

    expect(await f.run(['admin', 'webhooks', 'remove', id, '--dry-run'])).toBe(0);
    expect(await f.store(async (store) => (await store.webhookDestinations.list()).length)).toBe(1);
    expect(await f.json(['admin', 'webhooks', 'remove', id])).toMatchObject({ id, removed: true });
    expect(await f.json(['admin', 'webhooks', 'list'])).toEqual([]);
    expect(await f.run(['admin', 'webhooks', 'remove', id])).toBe(4);
    expect(f.stderr()).toContain(`no webhook destination '${id}'`);
    expect(await f.run(['admin', 'webhooks', 'rotate-secret', id])).toBe(4);
  });
});

describe.each(BACKENDS)('admin webhooks deliveries / redeliver (%s)', (backend) => {
  it('lists deliveries with their attempts, --failed and --tenant narrow it, and redeliver queues one again', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'tenants', 'add', 'acme.test']);
    const { id: dest } = await f.json(['admin', 'webhooks', 'add', 'https://h.example.com/']);
    await f.json(['admin', 'webhooks', 'add', 'https://acme.example.com/', '--tenant', 'acme.test']);
    const ids = await f.store(async (store) => {
      await store.webhookOutbox.enqueue(1, 'events.created', { id: 1, calendar_id: 1 });
      await store.webhookOutbox.enqueue(1, 'events.deleted', { id: 1, calendar_id: 1 });
      await store.webhookOutbox.enqueue(2, 'events.created', { id: 9, calendar_id: 3 });
      const [older, newer] = (await store.webhookOutbox.list({ tenantId: 1, limit: 10 })).reverse();
      await store.webhookOutbox.settle(older.id, { at: '2026-01-01T00:00:00.000Z', status_code: 500, error: null }, { status: 'failed' });
      await store.webhookOutbox.settle(newer.id, { at: '2026-01-01T00:00:01.000Z', status_code: null, error: 'ECONNREFUSED: connect ECONNREFUSED' }, { retryAt: '2026-01-01T00:00:11.000Z' });
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

describe.each(BACKENDS)('admin webhooks trigger (%s)', (backend) => {
  it('triggers each type, lists the deliveries with their attempts, redelivers; a removed destination is exit 5', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'tenants', 'add', 'localhost']);
    const { id: dest } = await f.json(['admin', 'webhooks', 'add', 'https://h.example.com/']);
    const made = [];
    for (const type of ['events.created', 'events.updated', 'events.rescheduled', 'events.deleted', 'meeting_links.scheduled']) {
      made.push(await f.json(['admin', 'webhooks', 'trigger', type]));
    }
    expect(made.map((m) => m.webhook_events)).toEqual([
      ['events.created'],
      ['events.created', 'events.updated'],
      ['events.created', 'events.rescheduled'],
      ['events.created', 'events.deleted'],
      ['events.created', 'meeting_links.scheduled'],
    ]);
    expect(made[0]).toMatchObject({ tenant: 'localhost', destinations: 1, customer_id: expect.any(Number), calendar_id: expect.any(Number), event_id: expect.any(Number) });
    const listed = await f.json<Record<string, any>[]>(['admin', 'webhooks', 'deliveries']);
    expect(listed.map((d) => d.type).reverse()).toEqual(made.flatMap((m) => m.webhook_events));
    expect(listed.every((d) => d.status === 'pending' && d.destination_id === dest && d.attempts.length === 0)).toBe(true);

    const first = listed[listed.length - 1];
    await f.store((s) => s.webhookOutbox.settle(first.id, { at: '2026-01-01T00:00:00.000Z', status_code: 500, error: null }, { status: 'failed' }));
    const failed = await f.json<Record<string, any>[]>(['admin', 'webhooks', 'deliveries', '--failed']);
    expect(failed.map((d) => [d.id, d.status, d.last_result, d.attempts])).toEqual([[first.id, 'failed', 500, [{ at: '2026-01-01T00:00:00.000Z', status_code: 500, error: null }]]]);
    expect(await f.json(['admin', 'webhooks', 'redeliver', String(first.id)])).toMatchObject({ id: first.id, status: 'pending', event_id: first.event_id });
    expect(await f.json(['admin', 'webhooks', 'deliveries', '--failed'])).toEqual([]);
    expect(await f.run(['admin', 'webhooks', 'redeliver', '999'])).toBe(4);
    expect((await f.json<unknown[]>(['admin', 'webhooks', 'deliveries', '--limit', '3'])).length).toBe(3);
    await f.json(['admin', 'webhooks', 'remove', dest]);
    expect((await f.json<{ status: string }[]>(['admin', 'webhooks', 'deliveries'])).every((d) => d.status === 'canceled')).toBe(true);
    expect(await f.run(['admin', 'webhooks', 'redeliver', String(first.id)])).toBe(5);
    expect(f.stderr()).toContain('went to a destination that was removed');
    expect(await f.run(['admin', 'webhooks', 'trigger', 'events.nope'])).toBe(6);
  });

});

describe.each(BACKENDS)('admin events and meeting-links (%s)', (backend) => {
  it('create, update, reschedule and delete events, book through meeting links, each queuing its webhook events', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'tenants', 'add', 'localhost']);
    await f.json(['admin', 'webhooks', 'add', 'https://h.example.com/']);
    const { calendar_id: calendar } = await f.json(['admin', 'webhooks', 'trigger', 'events.created']);
    const cal = String(calendar);
    const created = await f.json(['admin', 'events', 'create', '--calendar', cal, '--title', 'Sync', '--start', '2026-12-01T09:00:00Z', '--end', '2026-12-01T09:30:00Z']);
    expect(created).toMatchObject({ calendar_id: calendar, title: 'Sync', start: '2026-12-01T09:00:00.000Z', end: '2026-12-01T09:30:00.000Z', webhook_events: ['events.created'] });
    const id = String(created.id);
    expect((await f.json(['admin', 'events', 'update', id, '--title', 'Weekly', '--end', '2026-12-01T10:00:00Z'])).webhook_events).toEqual(['events.updated', 'events.rescheduled']);
    expect((await f.json(['admin', 'events', 'reschedule', id, '--start', '2026-12-01T08:00:00Z'])).webhook_events).toEqual(['events.rescheduled']);
    expect(await f.run(['admin', 'events', 'reschedule', id, '--start', '2026-12-01T11:00:00Z'])).toBe(6);
    expect(f.stderr()).toContain('must be after the start');
    expect(await f.run(['admin', 'events', 'update', '999', '--title', 'x'])).toBe(4);
    expect(await f.run(['--dry-run', 'admin', 'events', 'delete', id])).toBe(0);
    expect(await f.json(['admin', 'events', 'delete', id])).toMatchObject({ id: created.id, title: 'Weekly', webhook_events: ['events.deleted'], deleted: true });
    expect(await f.run(['admin', 'events', 'delete', id])).toBe(4);

    const link = await f.json(['admin', 'meeting-links', 'create', '--calendar', cal, '--name', 'Intro call', '--duration', '15']);
    expect(link).toMatchObject({ calendar_id: calendar, name: 'Intro call', duration_minutes: 15 });
    expect(await f.json(['admin', 'meeting-links', 'list'])).toEqual([link]);
    const booked = await f.json(['admin', 'meeting-links', 'schedule', String(link.id), '--name', 'Grace Hopper', '--email', 'grace@example.com', '--start', '2026-12-01T15:00:00Z']);
    expect(booked).toMatchObject({ meeting_link_id: link.id, calendar_id: calendar, customer_created: true, webhook_events: ['events.created', 'meeting_links.scheduled'] });
    expect(await f.run(['admin', 'meeting-links', 'create', '--calendar', '999', '--name', 'X'])).toBe(4);

    const types = (await f.json<{ type: string; body: string }[]>(['admin', 'webhooks', 'deliveries'])).map((d) => d.type).reverse();
    expect(types).toEqual(['events.created', 'events.created', 'events.updated', 'events.rescheduled', 'events.rescheduled', 'events.deleted', 'events.created', 'meeting_links.scheduled']);
    const event = await f.store((s) => s.events.get(1, calendar, booked.event_id));
    expect(event).toMatchObject({ title: 'Intro call: Grace Hopper', start: '2026-12-01T15:00:00.000Z', end: '2026-12-01T15:15:00.000Z', customer_id: booked.customer_id });
  });
});

describe.each(BACKENDS)('admin webhooks on a store without confctl data (%s)', (backend) => {
  it('lists are empty, --dry-run plans nothing; a database is left without its schema', async () => {
    const f = await adminOn(backend, {}, 'flag');
    expect(await f.json(['admin', 'webhooks', 'list', ...f.flags])).toEqual([]);
    expect(await f.json(['admin', 'webhooks', 'deliveries', ...f.flags])).toEqual([]);
    expect(await f.run(['admin', 'meeting-links', 'list', ...f.flags])).toBe(4);
    expect(await f.run(['--dry-run', 'admin', 'webhooks', 'add', 'https://h.example.com/', ...f.flags])).toBe(4);
    expect(f.stderr()).toContain('has no tenant yet');
    expect(await f.run(['--dry-run', 'admin', 'webhooks', 'trigger', 'events.created', ...f.flags])).toBe(4);
    expect(f.stderr()).not.toContain('hunter2');
    if (f.url) expect(await schemaExists(f.url)).toBe(false);
  });
});

// Only a database can be out of reach: this case has no data-directory twin.
describe('admin webhooks --database', () => {
  it('a database that does not answer is exit 8, the URL without its password', async () => {
    const f = admin();
    expect(await f.run(['admin', 'webhooks', 'trigger', 'events.created', '--database', 'postgres://confctl:hunter2@127.0.0.1:1/confctl'])).toBe(8);
    expect(f.stderr()).toContain('postgres://confctl:***@127.0.0.1:1/confctl');
    expect(f.stderr()).not.toContain('hunter2');
  });
});
