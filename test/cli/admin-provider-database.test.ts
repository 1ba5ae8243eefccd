import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AdminError } from '../../src/admin/errors.js';
import { ImportError } from '../../src/admin/import.js';
import { importRecords } from '../../src/admin/import.js';
import { startConference } from '../../src/admin/lifecycle.js';
import type { DataStore } from '../../src/store/port.js';
import { tenantRows } from '../admin/backends.js';
import { type Backend, BACKENDS } from '../e2e/harness.js';
import { q } from '../store/contract/fixtures.js';
import { adminDatabaseFixture, type BackendAdmin, waitingConference, waitingConferences } from './admin-database-fixture.js';
import { type AdminFake, adminFake } from './admin-helpers.js';

/**
 * `admin roles|departments|invitations list`, `admin conferences start|end`, `admin recordings
 * finish|fail`, `admin init`, `admin import` and `admin seed`, each case on a data directory
 * (`CONFCTL_DATA`) and on the run's PostgreSQL (`--database`, or CONFCTL_DATABASE_URL unless
 * --data): the output of a data directory, the changes in the store, read through the port.
 */
const { admin, adminOn, schemaExists } = adminDatabaseFixture();
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'confctl-pg-admin-'));
  dirs.push(d);
  return d;
}

const all = q({ with_trashed: true, page_size: 100 });
const firstPage = { page_size: 50, page_number: 1 };

/** A data directory with the demo set and two invitations, made once for the file: the tests change copies of it. */
let demo: Promise<AdminFake> | undefined;
afterAll(async () => (await demo)?.dispose());
function demoSource(): Promise<AdminFake> {
  demo ??= (async () => {
    const d = adminFake();
    await d.json(['admin', 'init', '--no-profile']);
    await d.json(['admin', 'seed', '--demo']);
    d.inspect((l) => {
      const [tenant] = l.store.tenants.list();
      for (const n of [1, 2]) void l.store.units.createUser(tenant.id, { first_name: 'Invited', last_name: `No ${n}`, email: `invited${n}@example.com` }, true);
    });
    return d;
  })();
  return demo;
}

/**
 * A store of `backend` holding the demo set and two invitations, and a data directory `local`
 * holding the same: both copies of `demoSource`, the store's made by `admin copy` into the
 * database, or of the directory's files. Both hold the same rows, their stamps included.
 */
async function demoOn(backend: Backend, more: Parameters<typeof adminOn>[1] = {}): Promise<{ f: BackendAdmin; local: AdminFake }> {
  const source = (await demoSource()).dataDir;
  const local = admin();
  cpSync(source, local.dataDir, { recursive: true });
  const f = await adminOn(backend, more);
  if (f.url) await local.json(['admin', 'copy', '--from', local.dataDir, '--to', f.url, '--media-to', join(scratch(), 'media')]);
  else cpSync(source, f.dataDir, { recursive: true });
  return { f, local };
}

/** Runs `work` with two stores open on `f`'s store at once (two connections, two pools). */
const twoStores = <T>(f: BackendAdmin, work: (stores: DataStore[]) => Promise<T>) => f.store((one) => f.store((two) => work([one, two])));

/** A recording of tenant 1 as stored. */
const recording = (f: BackendAdmin, id: number) => f.store((s) => s.recordings.get(1, id));

describe.each(BACKENDS)('admin roles|departments|invitations list on an empty store (%s)', (backend) => {
  it('exit 4 (no tenant); a database is left without its schema, the password masked', async () => {
    const f = await adminOn(backend, {}, 'flag');
    for (const what of ['roles', 'departments', 'invitations']) {
      expect(await f.run(['admin', what, 'list', ...f.flags]), what).toBe(4);
    }
    expect(f.stderr()).toContain(f.url ? 'the database postgres://' : `the data directory ${f.dataDir}`);
    expect(f.stderr()).toContain('has no tenant yet');
    expect(f.stderr()).not.toContain('hunter2');
    if (f.url) expect(await schemaExists(f.url)).toBe(false);
  });
});

describe.each(BACKENDS)('admin roles|departments|invitations list (%s)', (backend) => {
  it('print what the data directory prints, in JSON and as a table', async () => {
    const { f, local } = await demoOn(backend);
    for (const what of ['roles', 'departments', 'invitations']) {
      const there = await f.json<Record<string, unknown>[]>(['admin', what, 'list']);
      expect(there.length, what).toBeGreaterThan(0);
      expect(there, what).toEqual(await local.json(['admin', what, 'list', '--data', local.dataDir]));
      const start = f.stdout().length;
      expect(await f.run(['admin', what, 'list', '-o', 'table'])).toBe(0);
      const table = f.stdout().slice(start);
      const localStart = local.stdout().length;
      expect(await local.run(['admin', what, 'list', '-o', 'table'])).toBe(0);
      expect(table, what).toBe(local.stdout().slice(localStart));
    }
    const invitations = await f.json<Record<string, unknown>[]>(['admin', 'invitations', 'list', '--tenant', '127.0.0.1']);
    expect(invitations.map((i) => i.email)).toEqual(['invited1@example.com', 'invited2@example.com']);
    expect(await f.json(['admin', 'roles', 'list', '--fields', 'name'])).toEqual([{ name: 'Admin' }, { name: 'Manager' }, { name: 'Member' }]);
    expect(await f.run(['admin', 'roles', 'list', '--tenant', 'nowhere.test'])).toBe(4);
    expect(f.stderr()).toContain("no tenant has the domain 'nowhere.test'");
    // --data names a data directory: the environment's database is not used; both flags are exit 2.
    expect(await f.run(['admin', 'roles', 'list', '--data', local.dataDir, '--database', f.url ?? 'postgres://confctl@db.invalid/confctl'])).toBe(2);
  });
});

describe.each(BACKENDS)('admin conferences start|end and recordings finish|fail (%s)', (backend) => {
  it('drives a conference through its life with the SQLite rules, errors and output', async () => {
    const media = join(scratch(), 'media');
    const { f, local } = await demoOn(backend, { env: { CONFCTL_MEDIA_DIR: media } });
    const [{ id }, { id: other }] = await f.store(waitingConferences);
    const conf = String(id);

    expect(await f.run(['admin', 'conferences', 'end', conf])).toBe(5);
    expect(f.stderr()).toContain(`error: Online conference ${id} has not started.`);
    expect(await f.run(['--dry-run', 'admin', 'conferences', 'start', conf])).toBe(0);
    expect(f.stdout()).toMatch(new RegExp(`would start conference ${id} '.+' and begin its recording`));
    expect((await f.store((s) => s.conferences.get(1, id)))?.started_at).toBeNull();
    expect((await f.store((s) => s.recordings.listByConference(id, firstPage))).rows).toEqual([]);

    const started = await f.json(['admin', 'conferences', 'start', conf]);
    const localStarted = await local.json(['admin', 'conferences', 'start', conf]);
    expect(Object.keys(started)).toEqual(Object.keys(localStarted));
    expect(Object.keys(started.conference)).toEqual(Object.keys(localStarted.conference));
    expect(Object.keys(started.recording)).toEqual(Object.keys(localStarted.recording));
    expect(started.conference).toMatchObject({ id, started_at: started.recording.started_at, ended_at: null });
    expect(started.recording).toMatchObject({ status: 1, online_conference_id: id, stopped_at: null });
    expect(await f.run(['admin', 'conferences', 'start', conf])).toBe(5);
    expect(f.stderr()).toContain(`error: Online conference ${id} has already started.`);
    expect(await f.run(['admin', 'conferences', 'start', '999999'])).toBe(4);
    expect(f.stderr()).toContain('error: Online conference 999999 does not exist.');
    expect(await f.run(['admin', 'conferences', 'start', 'x1'])).toBe(2);

    expect(await f.run(['--dry-run', 'admin', 'conferences', 'end', conf])).toBe(0);
    expect(f.stdout()).toContain('1 running recording(s) would become Processing');
    expect((await recording(f, started.recording.id))?.status).toBe(1);
    const ended = await f.json(['admin', 'conferences', 'end', conf]);
    expect(Object.keys(ended)).toEqual(Object.keys(await local.json(['admin', 'conferences', 'end', conf])));
    expect(ended.conference.ended_at).toMatch(/^\d{4}-/);
    expect(ended.recordings).toEqual([expect.objectContaining({ id: started.recording.id, status: 2, stopped_at: ended.conference.ended_at })]);
    expect(await f.run(['admin', 'conferences', 'end', conf])).toBe(5);
    expect(f.stderr()).toContain(`error: Online conference ${id} has already ended.`);

    // Finishing with a file that is not there: exit 6, nothing written, no file left.
    const rec = String(started.recording.id);
    expect(await f.run(['admin', 'recordings', 'finish', rec, '--file', join(media, '..', 'missing.wav')])).toBe(6);
    expect(f.stderr()).toContain('does not exist or is not a regular file.');
    const bytes = Buffer.from('RIFF-not-really-a-wav-but-bytes');
    const file = join(media, '..', 'talk.WAV');
    writeFileSync(file, bytes);
    const finished = await f.json(['admin', 'recordings', 'finish', rec, '--file', file]);
    expect(finished).toMatchObject({ id: started.recording.id, status: 3, file_name: `rec-${rec}.wav`, stopped_at: ended.conference.ended_at });
    expect(readFileSync(join(media, 'recordings', `rec-${rec}.wav`)).equals(bytes)).toBe(true);
    expect(readdirSync(join(media, 'recordings'))).toEqual([`rec-${rec}.wav`]);
    expect(await recording(f, started.recording.id)).toMatchObject({ status: 3, path: `recordings/rec-${rec}.wav` });
    expect(await f.run(['admin', 'recordings', 'finish', rec])).toBe(5);
    expect(f.stderr()).toContain(`error: Recording ${rec} is Finished; only a Recording or Processing recording can be finished.`);
    expect(await f.run(['admin', 'recordings', 'fail', rec])).toBe(5);
    expect(f.stderr()).toContain(`error: Recording ${rec} is Finished; only a Recording or Processing recording can be failed.`);
    expect(await f.run(['admin', 'recordings', 'fail', '999999'])).toBe(4);
    expect(f.stderr()).toContain('error: Recording 999999 does not exist.');

    // Another conference's running recording: failed (after a dry run that changes nothing), then a generated WAV is refused.
    const second = await f.json(['admin', 'conferences', 'start', String(other)]);
    const running = String(second.recording.id);
    expect(await f.run(['--dry-run', 'admin', 'recordings', 'fail', running])).toBe(0);
    expect(f.stdout()).toContain(`would mark recording ${running} Failed`);
    expect((await recording(f, second.recording.id))?.status).toBe(1);
    const failed = await f.json(['admin', 'recordings', 'fail', running]);
    expect(failed).toMatchObject({ id: second.recording.id, status: 4, stopped_at: expect.stringMatching(/^\d{4}-/) });
    expect(await f.run(['admin', 'recordings', 'finish', running])).toBe(5);
    expect(existsSync(join(media, 'recordings', `rec-${running}.wav`))).toBe(false);
  });

  it('two concurrent starts of one conference: one starts it, the other is refused, one recording begins', async () => {
    const { f } = await demoOn(backend);
    const { id } = await f.store(waitingConference);
    const now = new Date();
    const results = await twoStores(f, (stores) => Promise.allSettled(stores.map(async (s) => startConference(s, 1, id, now))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AdminError);
    expect(refused.reason.message).toBe(`Online conference ${id} has already started.`);
    expect((await f.store((s) => s.recordings.listByConference(id, firstPage))).rows.map((r) => ({ status: r.status }))).toEqual([{ status: 1 }]);
  });
});

describe.each(BACKENDS)('admin recordings finish (%s)', (backend) => {
  it('finish without --file writes a generated WAV into --media', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'seed', '--demo']);
    const media = join(scratch(), 'shared-media');
    const { id } = await f.store(waitingConference);
    const { recording } = await f.json(['admin', 'conferences', 'start', String(id)]);
    const finished = await f.json(['admin', 'recordings', 'finish', String(recording.id), '--media', media]);
    expect(finished).toMatchObject({ status: 3, file_name: `rec-${recording.id}.wav` });
    expect(readFileSync(join(media, 'recordings', `rec-${recording.id}.wav`)).subarray(0, 4).toString()).toBe('RIFF');
  });
});

describe.each(BACKENDS)('admin init (%s)', (backend) => {
  const ELSEWHERE = { base_url: 'http://localhost:9999/api/public/v2.0', key_id: 'ak_elsewhere', secret: 'kept-secret' };

  it('plans without creating the store, then creates the first tenant and key and saves the profile; a second init is exit 5', async () => {
    const f = await adminOn(backend);
    expect(await f.run(['--dry-run', 'admin', 'init'])).toBe(0);
    expect(f.stdout()).toContain(`would create tenant localhost (aliases 127.0.0.1, ::1) with roles Admin, Manager, Member in ${f.where}`);
    expect(f.stdout()).toContain("would create an all-permissions key 'admin' and print its secret once");
    expect(f.stdout()).toContain("would save profile 'local' pointing at http://localhost:8080/api/public/v2.0");
    expect(f.stdout()).not.toContain('hunter2');
    if (f.url) expect(await schemaExists(f.url)).toBe(false);
    else expect(existsSync(f.dataDir)).toBe(false);

    const created = await f.json(['admin', 'init']);
    expect(created).toEqual({ tenant: 'localhost', key_id: expect.stringMatching(/^ak_/), secret: expect.any(String) });
    expect((await f.ctx.config()).get('local')).toMatchObject({ key_id: created.key_id, secret: created.secret, base_url: 'http://localhost:8080/api/public/v2.0' });
    expect(await f.json(['admin', 'roles', 'list'])).toEqual(['Admin', 'Manager', 'Member'].map((name) => ({ name, tenant: 'localhost' })));
    const keys = await f.json<Record<string, unknown>[]>(['admin', 'keys', 'list']);
    expect(keys).toEqual([expect.objectContaining({ id: created.key_id, name: 'admin', permissions: ['*'], tenant: 'localhost' })]);
    expect((await f.json<Record<string, unknown>[]>(['admin', 'tenants', 'list']))[0]).toMatchObject({ primary_domain: 'localhost', aliases: ['127.0.0.1', '::1'] });

    expect(await f.run(['admin', 'init', '--no-profile'])).toBe(5);
    expect(f.stderr()).toContain(`error: ${f.where} is already initialised`);
    expect(f.stderr()).toContain(`create more keys with 'confctl admin keys create${f.url ? ' --database URL' : ''}'`);
    expect(f.stderr()).not.toContain('hunter2');
    expect(await f.store(async (s) => (await s.keys.list()).length)).toBe(1);
  });

  it('--domain and --no-profile; plain output names the store (a database masked)', async () => {
    const f = await adminOn(backend, {}, 'flag');
    const start = f.stdout().length;
    expect(await f.run(['admin', 'init', ...f.flags, '--domain', 'Acme.Test', '--no-profile', '-o', 'table'])).toBe(0);
    const out = f.stdout().slice(start);
    const where = f.where.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(out).toMatch(new RegExp(`^Initialised ${where}\nTenant: acme.test\nKey id: ak_\\w+\nSecret: \\w+   \\(shown only now\\)\n$`));
    expect((await f.ctx.config()).get('local')).toBeUndefined();
    expect(await f.json(['admin', 'tenants', 'list', ...f.flags])).toEqual([expect.objectContaining({ primary_domain: 'acme.test', aliases: [] })]);
  });

  it('a profile pointing elsewhere is replaced only with --force: in a script, exit 2 and nothing created', async () => {
    const f = await adminOn(backend);
    (await f.ctx.config()).save('local', ELSEWHERE, { activate: true });
    expect(await f.run(['admin', 'init'])).toBe(2);
    expect(f.stderr()).toContain("error: profile 'local' (http://localhost:9999/api/public/v2.0, key ak_elsewhere) already exists; not replacing it");
    expect(await f.store(async (s) => (await s.tenants.list()).length)).toBe(0);
    expect((await f.ctx.config()).get('local')).toEqual(ELSEWHERE);

    const named = await f.json(['admin', 'init', '--profile-name', 'pg']);
    expect((await f.ctx.config()).get('pg')).toMatchObject({ key_id: named.key_id });
    expect((await f.ctx.config()).get('local')).toEqual(ELSEWHERE);
  });
});

// Only a database can be out of reach: this case has no data-directory twin.
describe('admin init --database', () => {
  it('unreachable: exit 8, the password masked', async () => {
    const f = admin();
    expect(await f.run(['admin', 'init', '--database', 'postgres://confctl:hunter2@127.0.0.1:1/confctl'])).toBe(8);
    expect(f.stderr()).toContain('cannot reach the database postgres://confctl:***@127.0.0.1:1/confctl');
    expect(f.stderr()).not.toContain('hunter2');
  });
});

describe.each(BACKENDS)('admin import (%s)', (backend) => {
  /** The stderr a command adds. */
  async function stderrOf(f: AdminFake, args: string[]): Promise<{ code: number; err: string }> {
    const start = f.stderr().length;
    const code = await f.run(args);
    return { code, err: f.stderr().slice(start) };
  }

  it('imports all or nothing with the SQLite messages; --dry-run writes nothing; events queue their deliveries in the same transaction', async () => {
    const f = await adminOn(backend);
    const local = admin();
    const dir = scratch();
    const users = () => f.store(async (s) => (await s.users.list(1, all)).rows);
    await f.json(['admin', 'init', '--no-profile']);
    await local.json(['admin', 'init', '--no-profile']);

    const departments = join(dir, 'departments.json');
    writeFileSync(departments, JSON.stringify([{ name: 'Sales' }, { name: 'Ops' }]));
    expect(await f.json(['admin', 'import', 'departments', departments])).toEqual({ kind: 'departments', created: 2, tenant: 'localhost' });
    await local.json(['admin', 'import', 'departments', departments]);

    const usersFile = join(dir, 'users.ndjson');
    writeFileSync(usersFile, [
      '{"first_name":"Grace","last_name":"Hopper","email":"grace@example.com","role":"Admin","department":"Sales"}',
      '{"first_name":"Alan","last_name":"Turing","email":"alan@example.com","department":"Research"}',
    ].join('\n'));
    expect(await f.run(['--dry-run', 'admin', 'import', 'users', usersFile])).toBe(0);
    expect(f.stdout()).toContain('would import 2 users into tenant localhost');
    expect(await users()).toHaveLength(0);
    expect((await f.store((s) => s.departments.list(1))).filter((d) => d.name === 'Research')).toHaveLength(0);
    expect(await f.json(['admin', 'import', 'users', usersFile])).toEqual({ kind: 'users', created: 2, tenant: 'localhost' });
    await local.json(['admin', 'import', 'users', usersFile]);
    expect(await f.json(['admin', 'departments', 'list', '--fields', 'name'])).toEqual([{ name: 'Sales' }, { name: 'Ops' }, { name: 'Research' }]);
    expect((await users()).map((u) => ({ email: u.email, role: u.role, department: u.department_name }))).toEqual([
      { email: 'grace@example.com', role: 'Admin', department: 'Sales' },
      { email: 'alan@example.com', role: null, department: 'Research' },
    ]);

    // A bad file: the same report as on a data directory, exit 6, nothing written.
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, [
      '{"first_name":"Ok","last_name":"Row","email":"ok@example.com"}',
      '{"first_name":"","last_name":"Row","email":"nope"}',
      '{"first_name":"Again","last_name":"Grace","email":"GRACE@example.com","role":"Pilot"}',
      'not json',
    ].join('\n'));
    const there = await stderrOf(f, ['admin', 'import', 'users', bad]);
    const here = await stderrOf(local, ['admin', 'import', 'users', bad]);
    expect(there.code).toBe(6);
    expect(here.code).toBe(6);
    expect(there.err).toBe(here.err);
    expect(there.err).toContain('email: The email has already been taken.');
    expect(there.err).toContain('role: The selected role is invalid.');
    expect(await users()).toHaveLength(2);

    // Events: their calendar imported first; each event queues events.created for the destination.
    await f.json(['admin', 'webhooks', 'add', 'https://hooks.example.com/']);
    const calendars = join(dir, 'calendars.json');
    // Ids come from PostgreSQL's sequences, which the rolled-back dry run advanced: read Grace's.
    const grace = (await f.store((s) => s.users.findByEmail(1, 'grace@example.com')))!.id;
    writeFileSync(calendars, JSON.stringify([{ owner_type: 'User', owner_id: grace, name: 'Grace' }]));
    expect(await f.json(['admin', 'import', 'calendars', calendars])).toMatchObject({ created: 1 });
    // The tenant's first calendar, the one imported.
    const calendar = 1;
    expect(await f.store((s) => s.calendars.get(1, calendar))).toMatchObject({ owner_type: 'User', owner_id: grace, name: 'Grace' });
    const events = join(dir, 'events.json');
    writeFileSync(events, JSON.stringify([
      { calendar_id: calendar, title: 'One', start: '2026-12-01T09:00:00Z', end: '2026-12-01T10:00:00Z' },
      { calendar_id: calendar, title: 'Two', start: '2026-12-02T09:00:00Z', end: '2026-12-02T10:00:00Z', attendees: [{ email: 'x@example.com' }] },
    ]));
    const badEvents = join(dir, 'bad-events.json');
    writeFileSync(badEvents, JSON.stringify([
      { calendar_id: calendar, title: 'Fine', start: '2026-12-01T09:00:00Z', end: '2026-12-01T10:00:00Z' },
      { calendar_id: 999, title: 'Nowhere', start: '2026-12-01T09:00:00Z', end: '2026-12-01T08:00:00Z' },
    ]));
    const refused = await stderrOf(f, ['admin', 'import', 'events', badEvents]);
    expect(refused.code).toBe(6);
    expect(refused.err).toContain('bad-events.json: 1 invalid record (record 2); nothing was imported.');
    expect(refused.err).toContain('bad-events.json#2: calendar_id: The selected calendar_id is invalid.');
    const deliveries = () => f.store(async (s) => (await s.webhookOutbox.list({ limit: 100 })).reverse());
    expect(await deliveries()).toHaveLength(0);
    expect(await f.json(['admin', 'import', 'events', events])).toEqual({ kind: 'events', created: 2, tenant: 'localhost' });
    const queued = await f.store(async (s) => {
      const events = [];
      for (const d of (await s.webhookOutbox.list({ limit: 100 })).reverse()) {
        const { id } = (JSON.parse(d.body) as { data: { id: number } }).data;
        events.push({ type: d.type, event: (await s.events.get(1, calendar, id))! });
      }
      return events;
    });
    expect(queued.map((d) => ({ type: d.type, title: d.event.title }))).toEqual([{ type: 'events.created', title: 'One' }, { type: 'events.created', title: 'Two' }]);
    expect(queued.flatMap((d) => d.event.attendees.map((a) => ({ email: a.email })))).toEqual([{ email: 'x@example.com' }]);
  });

  it('two concurrent imports of the same users: one writes them all, the other is refused whole (their e-mails taken)', async () => {
    const f = await adminOn(backend);
    await f.json(['admin', 'init', '--no-profile']);
    const text = Array.from({ length: 20 }, (_, i) => JSON.stringify({ first_name: 'Same', last_name: `No ${i}`, email: `same${i}@example.com` })).join('\n');
    const results = await twoStores(f, async (stores) => {
      const [tenant] = await stores[0].tenants.list();
      return Promise.allSettled(stores.map(async (s) => importRecords(s, tenant.id, 'users', text, { fileName: 'same.ndjson' })));
    });
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<unknown>).value)).toEqual([{ kind: 'users', created: 20 }]);
    const refused = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
    expect(refused).toBeInstanceOf(ImportError);
    expect(refused.rows).toHaveLength(20);
    expect(refused.details()[0]).toBe('same.ndjson:1: email: The email has already been taken.');
    expect(await f.store(async (s) => (await s.users.list(1, all)).total)).toBe(20);
  });

});

describe.each(BACKENDS)('admin import without a tenant (%s)', (backend) => {
  it('a store without a tenant: exit 4, nothing created', async () => {
    const f = await adminOn(backend, {}, 'flag');
    const file = join(scratch(), 'customers.json');
    writeFileSync(file, JSON.stringify([{ first_name: 'A', last_name: 'B', email: 'a@example.com' }]));
    expect(await f.run(['admin', 'import', 'customers', file, ...f.flags])).toBe(4);
    expect(f.stderr()).toContain('has no tenant yet');
    expect(await f.store(async (s) => (await s.tenants.list()).length)).toBe(0);
  });
});

describe.each(BACKENDS)('admin seed --users/--customers (%s)', (backend) => {
  it('--users/--customers add the rows a data directory gets, deterministically', async () => {
    const f = await adminOn(backend);
    const local = admin();
    expect(await f.run(['admin', 'seed', '--users', '5'])).toBe(4);
    await f.json(['admin', 'init', '--no-profile']);
    await local.json(['admin', 'init', '--no-profile']);
    const userCount = () => f.store(async (s) => (await s.users.list(1, all)).total);
    expect(await f.run(['--dry-run', 'admin', 'seed', '--users', '30', '--customers', '4'])).toBe(0);
    expect(f.stdout()).toContain('would add 30 generated users and 4 generated customers to tenant localhost');
    expect(await userCount()).toBe(0);
    const seeded = await f.json(['admin', 'seed', '--users', '30', '--customers', '4']);
    expect(seeded).toEqual(await local.json(['admin', 'seed', '--users', '30', '--customers', '4']));
    expect(seeded).toEqual({ tenant: 'localhost', users: 30, customers: 4 });
    const pick = (u: { email: string; role?: string | null; deleted_at: string | null; timezone?: string | null }) => [u.email, u.role, u.deleted_at, u.timezone];
    const localUsers = local.inspect((l) => l.store.users.list(l.store.tenants.list()[0].id, all).rows.map(pick));
    const localCustomers = local.inspect((l) => l.store.customers.list(l.store.tenants.list()[0].id, all).rows.map((c) => [c.email, c.deleted_at, c.contact_number]));
    await f.store(async (store) => {
      const [tenant] = await store.tenants.list();
      expect((await store.users.list(tenant.id, all)).rows.map(pick)).toEqual(localUsers);
      expect((await store.customers.list(tenant.id, all)).rows.map((c) => [c.email, c.deleted_at, c.contact_number])).toEqual(localCustomers);
    });
    // A second seed numbers its rows after the first.
    await f.json(['admin', 'seed', '--users', '2']);
    const last = await f.store(async (s) => (await s.users.list(1, { ...all, page_size: 1, order_direction: 'desc' })).rows[0].email);
    expect(last).toMatch(/\.32@bulk\.example\.com$/);
  });
});

describe.each(BACKENDS)('admin seed --demo (%s)', (backend) => {
  it('--demo: loaded into an empty store with its key, skipped where present, added to a tenant without it', async () => {
    const media = join(scratch(), 'media');
    const f = await adminOn(backend, { env: { CONFCTL_MEDIA_DIR: media } });
    // Into a database without a tenant, --demo makes the first tenant and its key, as `serve
    // --database --demo` does; a data directory is made by `admin init` (or `serve`), and seed refuses one without a tenant.
    let init: Record<string, unknown> | undefined;
    if (f.url) {
      expect(await f.run(['--dry-run', 'admin', 'seed', '--demo'])).toBe(0);
      expect(f.stdout()).toContain("would create tenant localhost with the demo data set and an all-permissions key 'admin'");
      expect(await schemaExists(f.url)).toBe(false);
    } else {
      expect(await f.run(['admin', 'seed', '--demo'])).toBe(4);
      expect(f.stderr()).toContain('has no tenant yet');
      init = await f.json(['admin', 'init', '--no-profile']);
    }

    const loaded = await f.json(['admin', 'seed', '--demo']);
    const key = init ?? loaded;
    expect(loaded).toMatchObject({ tenant: 'localhost', demo: { skipped: false } });
    expect(key).toMatchObject({ key_id: expect.stringMatching(/^ak_/), secret: expect.any(String) });
    expect(loaded.demo.users).toBeGreaterThan(0);
    expect(await f.store(async (s) => (await s.users.list(1, all)).total)).toBe(loaded.demo.users);
    for (const file of loaded.demo.files) expect(existsSync(join(media, file)), file).toBe(true);
    expect(await f.json(['admin', 'keys', 'list', '--fields', 'id,name'])).toEqual([{ id: key.key_id, name: 'admin' }]);

    const again = await f.json(['admin', 'seed', '--demo', '--users', '3']);
    expect(again).toMatchObject({ tenant: 'localhost', demo: { skipped: true, users: 0 }, users: 3, customers: 0 });
    expect(await f.run(['--dry-run', 'admin', 'seed', '--demo'])).toBe(0);
    expect(f.stdout()).toContain('would skip the demo data set: tenant localhost already has it');

    // Into another tenant, as on a data directory: the demo set, then the bulk rows, beside what the tenant holds.
    await f.json(['admin', 'tenants', 'add', 'acme.test']);
    const rowsOf = (domain: string) => f.store(async (s) => tenantRows(s, (await s.tenants.byDomain(domain))!.id));
    const localhost = await rowsOf('localhost');
    expect(await f.run(['--dry-run', 'admin', 'seed', '--demo', '--tenant', 'acme.test'])).toBe(0);
    expect(f.stdout()).toContain('would fill tenant acme.test with the demo data set');
    const acme = await f.json(['admin', 'seed', '--demo', '--users', '3', '--tenant', 'acme.test']);
    expect(acme).toMatchObject({ tenant: 'acme.test', demo: { skipped: false, users: 25, customers: 30, conferences: 4, recordings: 5 }, users: 3, customers: 0 });
    expect(acme).not.toHaveProperty('secret');
    expect(await rowsOf('acme.test')).toEqual({ users: 28, customers: 30, conferences: 4, recordings: 5, meeting_links: 3 });
    expect(await rowsOf('localhost')).toEqual(localhost);
    for (const file of acme.demo.files) expect(existsSync(join(media, file)), file).toBe(true);
    expect(await f.json(['admin', 'seed', '--demo', '--tenant', 'acme.test'])).toMatchObject({ demo: { skipped: true, users: 0 } });
    expect(await rowsOf('acme.test')).toEqual({ users: 28, customers: 30, conferences: 4, recordings: 5, meeting_links: 3 });
  });
});
