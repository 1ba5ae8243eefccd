import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox, type ServeProcess } from './harness.js';
import { type Listener, listen } from './webhooks-helpers.js';
import { openStore } from '../../src/store/sqlite/index.js';

/**
 * The sending side end to end: `admin` changes in one process, `serve` delivering in another,
 * `webhooks listen` verifying what arrives. The retry schedule is scaled down through
 * CONFCTL_WEBHOOK_RETRY_DELAYS, so no test waits out the real one.
 */
const SECRET = 'whsec_e2e_sending_side';
const box = new Sandbox();
let listener: Listener;
let port: string;

/** `serve` with the scaled-down schedule; answers the child once it listens. */
const serve = async (): Promise<ServeProcess> => (await box.serve(['--no-profile'], { env: { CONFCTL_WEBHOOK_RETRY_DELAYS: '300,300,300,300' } })).child;

const stopped = (child: ServeProcess, signal: NodeJS.Signals) =>
  new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill(signal);
  });

/** What the listener printed and accepted (NDJSON, one object per delivery). */
const received = () =>
  listener
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; event: string; data: { id: number; event_id?: number; email?: string }; status: number });

/** Waits (up to 20 s) until the listener has accepted `n` deliveries in all. */
async function until(n: number): Promise<void> {
  for (let i = 0; i < 200 && received().length < n; i++) await new Promise((r) => setTimeout(r, 100));
  expect(received(), listener.stderr()).toHaveLength(n);
}

const createEvent = async (title: string) =>
  (await box.json(['admin', 'events', 'create', '--calendar', '1', '--title', title, '--start', '2026-12-01T09:00:00Z', '--end', '2026-12-01T09:30:00Z'])).id as number;

beforeAll(async () => {
  await box.json(['admin', 'init', '--no-profile']);
  await box.json(['admin', 'seed', '--demo']);
  listener = await listen(box, ['--secret', SECRET, '-o', 'ndjson']);
  port = new URL(listener.url).port;
  await box.json(['admin', 'webhooks', 'add', listener.url, '--secret', SECRET]);
});
afterAll(async () => {
  await listener.stop();
  await box.dispose();
});

describe('serve delivers what admin commands queue, signed, to webhooks listen', () => {
  it('delivers each event type of a change once, verified by the listener', async () => {
    const server = await serve();
    try {
      const id = await createEvent('Sync');
      await box.json(['admin', 'events', 'update', String(id), '--title', 'Weekly']);
      await box.json(['admin', 'events', 'reschedule', String(id), '--end', '2026-12-01T10:00:00Z']);
      await box.json(['admin', 'events', 'delete', String(id)]);
      await until(4);
      expect(received().map((r) => [r.event, r.data.id, r.status])).toEqual([
        ['events.created', id, 200],
        ['events.updated', id, 200],
        ['events.rescheduled', id, 200],
        ['events.deleted', id, 200],
      ]);
      expect(new Set(received().map((r) => r.id)).size).toBe(4);
      expect(listener.stderr()).not.toContain('Rejected');
    } finally {
      await stopped(server, 'SIGTERM');
    }
  }, 60_000);

  it('delivers what each trigger type makes, once each, verified', async () => {
    const server = await serve();
    try {
      const before = received().length;
      const made: { event_id: number; webhook_events: string[] }[] = [];
      for (const type of ['events.created', 'events.updated', 'events.rescheduled', 'events.deleted', 'meeting_links.scheduled']) {
        made.push(await box.json(['admin', 'webhooks', 'trigger', type]));
      }
      // meeting_links.scheduled carries the link's id and the event's as event_id.
      const expected = made.flatMap((m) => m.webhook_events.map((type) => [type, type === 'meeting_links.scheduled' ? undefined : m.event_id, 200]));
      expect(expected).toHaveLength(9);
      await until(before + expected.length);
      const got = received().slice(before);
      // Deliveries go out concurrently: two events of one change may arrive in either order.
      const byType = (rows: unknown[][]) => [...rows].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
      expect(byType(got.map((r) => [r.event, r.event === 'meeting_links.scheduled' ? undefined : r.data.id, r.status]))).toEqual(byType(expected));
      expect(got.find((r) => r.event === 'meeting_links.scheduled')!.data).toMatchObject({ event_id: made[4].event_id, email: expect.stringMatching(/^webhooks-trigger-/) });
      expect(listener.stderr()).not.toContain('Rejected');
    } finally {
      await stopped(server, 'SIGTERM');
    }
  }, 60_000);

  it('delivers to a listener that was down once it is back (retried on the schedule)', async () => {
    const server = await serve();
    try {
      await listener.stop();
      const before = received().length;
      const id = await createEvent('While down');
      const store = openStore(join(box.dataDir, 'confctl.db'));
      try {
        for (let i = 0; i < 200 && !store.webhookOutbox.list({ limit: 1 })[0]?.attempts.length; i++) await new Promise((r) => setTimeout(r, 50));
        expect(store.webhookOutbox.list({ limit: 1 })[0].attempts[0].status_code).toBeNull();
      } finally {
        store.close();
      }
      const out = listener.stdout();
      listener = await listen(box, ['--secret', SECRET, '-o', 'ndjson', '--port', port]);
      await until(1);
      expect(received()[0]).toMatchObject({ event: 'events.created', data: { id }, status: 200 });
      expect(out.split('\n').filter(Boolean)).toHaveLength(before);
    } finally {
      await stopped(server, 'SIGTERM');
    }
  }, 60_000);

  it('loses nothing when serve is killed with -9: what is queued meanwhile arrives after the restart', async () => {
    const first = await serve();
    await stopped(first, 'SIGKILL');
    const before = received().length;
    const ids = [await createEvent('A'), await createEvent('B'), await createEvent('C')];
    const second = await serve();
    try {
      await until(before + 3);
      expect(received().slice(before).map((r) => r.data.id)).toEqual(ids);
    } finally {
      await stopped(second, 'SIGTERM');
    }
  }, 60_000);

  it('two serve processes on one data directory deliver each event once between them (leases)', async () => {
    const [one, two] = [await serve(), await serve()];
    try {
      const before = received().length;
      const ids: number[] = [];
      for (let i = 0; i < 8; i++) ids.push(await createEvent(`Twice ${i}`));
      await until(before + 8);
      expect(received().slice(before).map((r) => r.data.id).sort((x, y) => x - y)).toEqual(ids);
      // Every delivery was attempted once: no instance sent one the other had claimed.
      const store = openStore(join(box.dataDir, 'confctl.db'));
      try {
        const created = store.webhookOutbox.list({ limit: 100 }).filter((d) => d.type === 'events.created' && ids.includes(JSON.parse(d.body).data.id));
        expect(created).toHaveLength(8);
        for (const d of created) expect([d.status, d.attempts.length]).toEqual(['delivered', 1]);
      } finally {
        store.close();
      }
    } finally {
      await Promise.all([stopped(one, 'SIGTERM'), stopped(two, 'SIGTERM')]);
    }
  }, 60_000);
});
