import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { adminDatabaseFixture } from './admin-database-fixture.js';

/**
 * `admin webhooks|events|meeting-links … --database` (or CONFCTL_DATABASE_URL unless --data) on
 * PostgreSQL: the same output as on a data directory (test/cli/admin-webhooks.test.ts,
 * admin-events.test.ts), the changes and their deliveries written to the database.
 */
const { database, admin, schemaExists } = adminDatabaseFixture();

/** Reads the database's store directly. */
async function inspect<T>(url: string, read: (store: Awaited<ReturnType<typeof openPostgresStore>>) => T | Promise<T>): Promise<T> {
  const store = await openPostgresStore(url);
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

describe('admin webhooks --database', () => {
  it('on a database without confctl schema: lists are empty, --dry-run plans nothing, neither creates the schema', async () => {
    const url = await database();
    const f = admin();
    expect(await f.json(['admin', 'webhooks', 'list', '--database', url])).toEqual([]);
    expect(await f.json(['admin', 'webhooks', 'deliveries', '--database', url])).toEqual([]);
    expect(await f.run(['admin', 'meeting-links', 'list', '--database', url])).toBe(4);
    expect(await f.run(['--dry-run', 'admin', 'webhooks', 'add', 'https://h.example.com/', '--database', url])).toBe(4);
    expect(f.stderr()).toContain('has no tenant yet');
    expect(await f.run(['--dry-run', 'admin', 'webhooks', 'trigger', 'events.created', '--database', url])).toBe(4);
    expect(f.stderr()).not.toContain('hunter2');
    expect(await schemaExists(url)).toBe(false);
  });

  it('adds, lists, rotates and removes destinations as on a data directory, the secret printed once', async () => {
    const url = await database();
    const f = admin({ CONFCTL_DATABASE_URL: url });
    const local = admin();
    await f.json(['admin', 'tenants', 'add', 'localhost']);
    await f.json(['admin', 'tenants', 'add', 'acme.test']);
    await local.json(['admin', 'init', '--no-profile']);
    const added = await f.json(['admin', 'webhooks', 'add', 'http://127.0.0.1:8090/hook', '--events', 'events.created,events.deleted']);
    const localAdded = await local.json(['admin', 'webhooks', 'add', 'http://127.0.0.1:8090/hook', '--events', 'events.created,events.deleted']);
    expect(Object.keys(added)).toEqual(Object.keys(localAdded));
    expect(added).toMatchObject({ tenant: 'localhost', url: 'http://127.0.0.1:8090/hook', events: ['events.created', 'events.deleted'], secret_rotated_at: null });
    expect(added.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(await inspect(url, async (s) => (await s.webhookDestinations.get(added.id))?.secret)).toBe(added.secret);
    await new Promise((r) => setTimeout(r, 2));
    await f.json(['admin', 'webhooks', 'add', 'https://hooks.acme.test/', '--tenant', 'acme.test', '--secret', 'whsec_mine']);

    const before = f.stdout().length;
    const listed = await f.json<Record<string, unknown>[]>(['admin', 'webhooks', 'list']);
    expect(listed.map((d) => [d.tenant, d.url, d.events])).toEqual([
      ['localhost', 'http://127.0.0.1:8090/hook', ['events.created', 'events.deleted']],
      ['acme.test', 'https://hooks.acme.test/', 'all'],
    ]);
    expect(f.stdout().slice(before)).not.toContain('whsec_');
    expect(await f.json(['admin', 'webhooks', 'list', '--tenant', 'acme.test', '--fields', 'url'])).toEqual([{ url: 'https://hooks.acme.test/' }]);
    // --data names a data directory: the environment's database is not used.
    expect((await f.json<unknown[]>(['admin', 'webhooks', 'list', '--data', local.dataDir])).length).toBe(1);
    expect(await f.run(['admin', 'webhooks', 'list', '--data', local.dataDir, '--database', url])).toBe(2);

    expect(await f.run(['admin', 'webhooks', 'rotate-secret', added.id, '--dry-run'])).toBe(0);
    expect(f.stdout()).toContain(`would replace the secret of webhook destination ${added.id} (http://127.0.0.1:8090/hook)`);
    const rotated = await f.json(['admin', 'webhooks', 'rotate-secret', added.id]);
    expect(rotated.secret).not.toBe(added.secret);
    expect(await inspect(url, async (s) => (await s.webhookDestinations.get(added.id))?.secret)).toBe(rotated.secret);
    expect(await f.run(['admin', 'webhooks', 'remove', added.id, '--dry-run'])).toBe(0);
    expect(await f.json(['admin', 'webhooks', 'remove', added.id])).toMatchObject({ id: added.id, removed: true });
    expect(await f.run(['admin', 'webhooks', 'remove', added.id])).toBe(4);
    expect(f.stderr()).toContain(`no webhook destination '${added.id}'`);
    expect(await f.run(['admin', 'webhooks', 'add', 'http://hooks.example.com/'])).toBe(6);
  });

  it('triggers each type, lists the deliveries with their attempts, redelivers; a removed destination is exit 5', async () => {
    const url = await database();
    const f = admin({ CONFCTL_DATABASE_URL: url });
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
    await inspect(url, (s) => s.webhookOutbox.settle(first.id, { at: '2026-01-01T00:00:00.000Z', status_code: 500, error: null }, { status: 'failed' }));
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

  it('a database that does not answer is exit 8, the URL without its password', async () => {
    const f = admin();
    expect(await f.run(['admin', 'webhooks', 'trigger', 'events.created', '--database', 'postgres://confctl:hunter2@127.0.0.1:1/confctl'])).toBe(8);
    expect(f.stderr()).toContain('postgres://confctl:***@127.0.0.1:1/confctl');
    expect(f.stderr()).not.toContain('hunter2');
  });
});

describe('admin events and meeting-links --database', () => {
  it('create, update, reschedule and delete events, book through meeting links, each queuing its webhook events', async () => {
    const url = await database();
    const f = admin({ CONFCTL_DATABASE_URL: url });
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
    const event = await inspect(url, (s) => s.events.get(1, calendar, booked.event_id));
    expect(event).toMatchObject({ title: 'Intro call: Grace Hopper', start: '2026-12-01T15:00:00.000Z', end: '2026-12-01T15:15:00.000Z', customer_id: booked.customer_id });
  });
});
