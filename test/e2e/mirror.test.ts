import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../src/client/client.js';
import { CONFERENCE_LIST, CUSTOMER_LIST, type ListSpec, USER_LIST } from '../../src/contract/list-specs.js';
import { Sandbox } from './harness.js';

/**
 * `confctl mirror` through the built bin, with a `serve --demo` as the hosted side: the mirror,
 * served, answers every list and filter as the source does, row for row (calendar events aside:
 * a mirrored conference's backer_event_id is null); an anonymized mirror's data directory holds
 * no source name, e-mail or phone number; a resume completes an interrupted mirror.
 */
/**
 * A `serve --demo` of its own as the hosted side of a describe block, so that the blocks run at the
 * same time: a mirror is paced by its source's rate limit (20 requests a second), and waiting on it
 * was most of the file's time (63 s with one source for the file, the blocks one after another).
 * Each block's tests still run in order (`it.sequential`).
 */
interface Source {
  box: Sandbox;
  /** A client of the source, with its `local` key. */
  client: ApiClient;
  /** The source server's output: its access log, one JSON line per request. */
  log: () => string;
  /** Mirrors the source into a new sandbox's data directory; answers the sandbox and the command's JSON output. */
  mirrorInto(args?: string[]): Promise<{ box: Sandbox; out: any }>;
  /** A sandbox to remove with the source. */
  keep(box: Sandbox): Sandbox;
}

function useSource(): Source {
  const mirrors: Sandbox[] = [];
  const source: Source = {
    box: new Sandbox(),
    client: undefined as unknown as ApiClient,
    log: () => '',
    async mirrorInto(args = []) {
      const box = source.keep(new Sandbox());
      const r = await source.box.run(['mirror', '--from-profile', 'local', '--to-data', box.dataDir, ...args, '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      return { box, out: JSON.parse(r.stdout) };
    },
    keep: (box) => (mirrors.push(box), box),
  };
  beforeAll(async () => {
    source.log = (await source.box.serve(['--demo', '--rate-limit', '20', '--log', 'json'])).output;
    const profiles = JSON.parse(readFileSync(join(source.box.configDir, 'profiles.json'), 'utf8'));
    const local = profiles.profiles.local;
    source.client = clientOf(local.base_url, local.key_id, local.secret);
  });
  afterAll(async () => {
    for (const box of mirrors) await box.dispose();
    await source.box.dispose();
  });
  return source;
}

/** A client of a served instance, paced and retried as the CLI's. */
const clientOf = (baseUrl: string, keyId: string, secret: string) => createClient({ baseUrl, keyId, secret });

async function serveMirror(box: Sandbox, out: any): Promise<ApiClient> {
  const { baseUrl } = await box.serve(['--no-profile', '--rate-limit', 'off']);
  return clientOf(baseUrl, out.key_id, out.secret);
}

/** Every page of a list (`query` added), rows and total. */
async function rowsOf(client: ApiClient, id: Parameters<ApiClient['paginate']>[0], params: Record<string, string | number> = {}, query: Record<string, unknown> = {}) {
  const rows: any[] = [];
  let total = -1;
  for await (const page of client.paginate(id, { params, query: { page_size: 100, ...query } as any })) {
    rows.push(...page.data);
    total = page.total;
  }
  return { rows, total };
}

const noBacker = (c: any) => ({ ...c, backer_event_id: null });

describe.concurrent('e2e: mirror of a served tenant', () => {
  const s = useSource();
  let mirror: ApiClient;
  let out: any;

  beforeAll(async () => {
    const made = await s.mirrorInto();
    out = made.out;
    mirror = await serveMirror(made.box, out);
  });

  it.sequential('paces its reads by the rate-limit headers: the source (20 requests a second) answered no 429', () => {
    const statuses = s.log().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l).status);
    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
  });

  it.sequential('reports what it mirrored and saves no profile', async () => {
    expect(out.counts).toMatchObject({ users: 25, customers: 30, conferences: 4, recordings: 5, files: 2 });
    expect(out.anonymized).toBe(false);
    const profiles = JSON.parse(readFileSync(join(s.box.configDir, 'profiles.json'), 'utf8'));
    expect(Object.keys(profiles.profiles)).toEqual(['local']);
  });

  it.each([
    ['listUsers', USER_LIST],
    ['listCustomers', CUSTOMER_LIST],
    ['listConferences', CONFERENCE_LIST],
  ] as const)('%s: every filter attribute and order answers row for row', async (id, spec: ListSpec) => {
    const all = await rowsOf(s.client, id, {}, { with_trashed: true });
    const fix = id === 'listConferences' ? noBacker : (r: any) => r;
    expect((await rowsOf(mirror, id, {}, { with_trashed: true })).rows).toEqual(all.rows.map(fix));
    const sample = all.rows[Math.floor(all.rows.length / 2)];
    for (const [attribute, type] of Object.entries(spec.filters)) {
      if (attribute === 'backer_event_id') continue;
      const raw = attribute === 'department' ? sample.department_name : attribute === 'address' ? 'a' : attribute === 'city_country' ? sample.address?.city : sample[attribute];
      const value = raw === null || raw === undefined ? undefined : type === 'text' && attribute !== 'address' ? String(raw).slice(1, 4) : String(raw);
      const operators = value === undefined ? ['NotNull'] : type === 'text' ? ['Contains', 'Equal', 'NotNull'] : ['GreaterThanOrEqual', 'Equal', 'IsNull'];
      for (const filter_operator of operators) {
        const query = { filter_attribute: attribute, filter_operator, ...(filter_operator.endsWith('Null') ? {} : { filter_value: filter_operator === 'Equal' ? String(raw) : value }), with_trashed: true };
        const [a, b] = await Promise.all([rowsOf(s.client, id, {}, query), rowsOf(mirror, id, {}, query)]);
        expect(b, `${attribute} ${filter_operator}`).toEqual({ rows: a.rows.map(fix), total: a.total });
      }
    }
    for (const order_by of spec.orders.filter((o) => o !== 'backer_event_id')) {
      const query = { order_by, order_direction: 'desc', page_size: 7 };
      const [a, b] = await Promise.all([s.client.call(id, { query }), mirror.call(id, { query })]);
      expect(b.data.map((r: any) => r.id), order_by).toEqual(a.data.map((r: any) => r.id));
    }
  });

  it.sequential('answers attendees, recordings and accounts as the source does; backer_event_id is null', async () => {
    const conferences = (await rowsOf(s.client, 'listConferences')).rows;
    for (const c of conferences) {
      for (const id of ['listConferenceAttendees', 'listConferenceRecordings'] as const) {
        expect(await rowsOf(mirror, id, { online_conference_id: c.id }), `${id} ${c.id}`).toEqual(await rowsOf(s.client, id, { online_conference_id: c.id }));
      }
      expect((await mirror.call('getConference', { params: { online_conference_id: c.id } })).data).toEqual(noBacker(c));
    }
    expect((await rowsOf(mirror, 'listConferences', {}, { filter_attribute: 'backer_event_id', filter_operator: 'NotNull', with_trashed: true })).total).toBe(0);
    for (const u of (await rowsOf(s.client, 'listUsers')).rows) {
      for (const id of ['listUserConferenceAccounts', 'listUserConnectedAccounts'] as const) {
        expect(await rowsOf(mirror, id, { user_id: u.id }), `${id} ${u.id}`).toEqual(await rowsOf(s.client, id, { user_id: u.id }));
      }
    }
  });

  it.sequential('serves finished recordings as generated WAV audio of the same length', async () => {
    const [finished] = (await rowsOf(s.client, 'listConferenceRecordings', { online_conference_id: 4 })).rows.filter((r) => r.status === 3);
    const { data } = await mirror.call('getRecordingUrl', { params: { online_conference_id: 4, online_conference_recording_id: finished.id } });
    const wav = Buffer.from(await (await fetch(data.url)).arrayBuffer());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    const seconds = wav.readUInt32LE(40) / wav.readUInt32LE(28);
    expect(seconds).toBeCloseTo((Date.parse(finished.stopped_at) - Date.parse(finished.started_at)) / 1000, 3);
  });
});

/** Every file's bytes under `dir`. */
function filesUnder(dir: string): Buffer[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [readFileSync(p)];
  });
}

describe.concurrent('e2e: mirror --anonymize', () => {
  const s = useSource();
  it.sequential('leaves no source name, e-mail or phone number in the data directory; same seed, same fakes', async () => {
    const users = (await rowsOf(s.client, 'listUsers', {}, { with_trashed: true })).rows;
    const customers = (await rowsOf(s.client, 'listCustomers', {}, { with_trashed: true })).rows;
    const attendees = (await Promise.all([1, 2, 3, 4].map((id) => rowsOf(s.client, 'listConferenceAttendees', { online_conference_id: id })))).flatMap((r) => r.rows);
    const people = [...users, ...customers, ...attendees];
    const secrets = new Set<string>();
    for (const p of people) {
      secrets.add(p.name).add(p.email).add(p.email.toLowerCase());
      // Name parts as written from 4 letters, lower-cased from 5 (a 4-letter one such as 'mary' is
      // in the schema's own words: is_primary).
      for (const part of [p.first_name, p.middle_name, p.last_name]) {
        if (part && part.length >= 4) secrets.add(part);
        if (part && part.length >= 5) secrets.add(part.toLowerCase());
      }
      if (p.contact_number) secrets.add(p.contact_number).add(p.contact_number.slice(1));
    }
    const { box, out } = await s.mirrorInto(['--anonymize', '--seed', 'e2e']);
    expect(out.anonymized).toBe(true);
    const files = filesUnder(box.dataDir);
    expect(files.length).toBeGreaterThan(3);
    for (const secret of secrets) for (const bytes of files) expect(bytes.includes(secret), secret).toBe(false);

    const again = await s.mirrorInto(['--anonymize', '--seed', 'e2e']);
    const other = await s.mirrorInto(['--anonymize', '--seed', 'other']);
    const table = (b: Sandbox, sql: string) => {
      const db = new Database(join(b.dataDir, 'confctl.db'), { readonly: true });
      try {
        return db.prepare(sql).all() as any[];
      } finally {
        db.close();
      }
    };
    const USERS = 'SELECT id, first_name, last_name, email, created_at, updated_at, deleted_at, department_id, role, status FROM users ORDER BY id';
    const fakes = table(box, USERS);
    expect(table(again.box, USERS)).toEqual(fakes);
    expect(table(other.box, USERS)).not.toEqual(fakes);
    // Ids, timestamps and the other fields are the source's.
    expect(fakes.map(({ first_name, last_name, email, ...rest }) => rest)).toEqual(
      users.map((u) => ({ id: u.id, created_at: u.created_at, updated_at: u.updated_at, deleted_at: u.deleted_at, department_id: u.department_id, role: u.role, status: u.status })),
    );
    // E-mails stay distinct, with domains of the same shape; equal names stay equal (same group sizes).
    expect(new Set(fakes.map((u) => u.email)).size).toBe(new Set(users.map((u) => u.email.toLowerCase())).size);
    const shape = (e: string) => e.split('@')[1].split('.').map((l, i, all) => (i === all.length - 1 ? l : l.length));
    expect(fakes.map((u) => shape(u.email))).toEqual(users.map((u) => shape(u.email.toLowerCase())));
    const groups = (names: string[]) => Object.values(names.reduce<Record<string, number>>((m, n) => ((m[n] = (m[n] ?? 0) + 1), m), {})).sort();
    expect(groups(fakes.map((u) => u.last_name))).toEqual(groups(users.map((u) => u.last_name)));
    // Cities, regions and countries are kept; phone numbers keep their length and first digit.
    const fakeCustomers = table(box, 'SELECT city, region, region_code, country, country_code, contact_number FROM customers ORDER BY id');
    expect(fakeCustomers.map(({ contact_number, ...place }) => place)).toEqual(
      customers.map((c) => ({ city: c.address?.city ?? null, region: c.address?.region ?? null, region_code: c.address?.region_code ?? null, country: c.address?.country ?? null, country_code: c.address?.country_code ?? null })),
    );
    expect(fakeCustomers.map((c) => c.contact_number?.replace(/\d/g, '9').length ?? null)).toEqual(customers.map((c) => c.contact_number?.length ?? null));
    // An attendee who is a user carries that user's fake e-mail.
    const fakeAttendees = table(box, "SELECT attendee_id, email FROM conference_attendees WHERE attendee_type = 'User'");
    const byId = new Map(fakes.map((u) => [u.id, u.email]));
    for (const a of fakeAttendees) expect(a.email).toBe(byId.get(a.attendee_id));
  });
});

describe.concurrent('e2e: mirror --anonymize without --seed', () => {
  const s = useSource();
  it.sequential('prints the random seed it chose on stderr; a resume needs it again', async () => {
    const box = new Sandbox();
    s.keep(box);
    const r = await s.box.run(['mirror', '--from-profile', 'local', '--to-data', box.dataDir, '--anonymize', '--limit-per-kind', '1', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const seed = /anonymizing with seed ([0-9a-f]{24}); give --seed \1 to repeat it or to --resume/.exec(r.stderr)?.[1];
    expect(seed).toBeDefined();
    const without = await s.box.run(['mirror', '--from-profile', 'local', '--to-data', box.dataDir, '--anonymize', '--limit-per-kind', '1', '--resume']);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('needs its --seed again');
    const wrong = await s.box.run(['mirror', '--from-profile', 'local', '--to-data', box.dataDir, '--anonymize', '--limit-per-kind', '1', '--resume', '--seed', 'x']);
    expect(wrong.stderr).toContain('seed differs');
    const right = await s.box.run(['mirror', '--from-profile', 'local', '--to-data', box.dataDir, '--anonymize', '--limit-per-kind', '1', '--resume', '--seed', seed!]);
    expect(right.code, right.stderr).toBe(0);
  });
});

describe.concurrent('e2e: mirror --since, --limit-per-kind, --resume', () => {
  const s = useSource();
  it.sequential('--limit-per-kind keeps it small and brings what the conferences refer to', async () => {
    const { box, out } = await s.mirrorInto(['--limit-per-kind', '2', '--since', '3650d']);
    expect(out.counts.customers).toBeGreaterThanOrEqual(2);
    expect(out.counts.conferences).toBe(2);
    const db = new Database(join(box.dataDir, 'confctl.db'), { readonly: true });
    try {
      const missing = db
        .prepare("SELECT count(*) FROM conference_attendees a WHERE (a.attendee_type = 'User' AND a.attendee_id NOT IN (SELECT id FROM users)) OR (a.attendee_type = 'Customer' AND a.attendee_id NOT IN (SELECT id FROM customers))")
        .pluck()
        .get();
      expect(missing).toBe(0);
      expect(db.prepare('SELECT count(*) FROM users').pluck().get()).toBeLessThan(25);
    } finally {
      db.close();
    }
  });

  it.sequential('--since 1ms mirrors nothing made before the run', async () => {
    const { out } = await s.mirrorInto(['--since', '1ms']);
    expect(out.counts).toEqual({ users: 0, customers: 0, conferences: 0, attendees: 0, recordings: 0, files: 0 });
  });

  it.sequential('refuses a target in use, and a resume with other options or nothing to resume', async () => {
    const { box } = await s.mirrorInto(['--limit-per-kind', '1']);
    const again = await s.box.run(['mirror', '--from-profile', 'local', '--to-data', box.dataDir]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('already holds a mirror');
    const other = await s.box.run(['mirror', '--from-profile', 'local', '--to-data', box.dataDir, '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('limit_per_kind differs');
    const none = await s.box.run(['mirror', '--from-profile', 'local', '--to-data', join(box.root, 'empty'), '--resume']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('nothing to resume');
  });

  it.each([
    [['--to-data', 'x', '--seed', '1'], '--seed goes with --anonymize'],
    [['--to-data', 'x', '--to-database', 'postgres://h/db'], 'give --to-data or --to-database, not both'],
    [[], 'say where the mirror goes'],
    [['--to-database', 'mysql://h/db'], '--to-database must be a PostgreSQL URL'],
    [['--to-data', 'x', '--since', '90 days'], "--since must be a positive duration: a number with ms, s, m, h or d (a bare number is seconds), not '90 days'"],
    [['--to-data', 'x', '--limit-per-kind', '0'], "--limit-per-kind must be a positive integer, not '0'"],
    [['--to-data', 'x', '--media', 'm'], '--media goes with --to-database'],
    [['--to-data', 'x', '--profile-name', 'a/b'], "profile name 'a/b' may hold only"],
    [['--to-data', 'x', '--profile', 'local'], "--profile does not apply to 'confctl mirror'"],
  ])('bad flags %j are exit 2, with nothing created', async (args, message) => {
    const r = await s.box.run(['mirror', '--from-profile', 'local', ...args], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it.sequential('--profile-name saves the new key as a profile (an existing name is refused, exit 5)', async () => {
    const { out } = await s.mirrorInto(['--limit-per-kind', '1', '--profile-name', 'mirrored']);
    const profiles = JSON.parse(readFileSync(join(s.box.configDir, 'profiles.json'), 'utf8'));
    expect(profiles.active).toBe('local');
    expect(profiles.profiles.mirrored).toMatchObject({ base_url: 'http://localhost:8080/api/public/v2.0', key_id: out.key_id });
    const box = new Sandbox();
    s.keep(box);
    const taken = await s.box.run(['mirror', '--from-profile', 'local', '--to-data', box.dataDir, '--profile-name', 'mirrored']);
    expect(taken.code).toBe(5);
    expect(taken.stderr).toContain("profile 'mirrored' exists");
  });

  it.sequential('--resume after the process was killed mid-way gives the same mirror as one run', async () => {
    const box = new Sandbox();
    s.keep(box);
    const { spawn } = await import('node:child_process');
    const { existsSync } = await import('node:fs');
    const { BIN } = await import('./harness.js');
    const args = ['mirror', '--from-profile', 'local', '--to-data', box.dataDir, '--anonymize', '--seed', 'k'];
    // Killed once the users and customers are saved and before the conferences are: the source
    // answers the conferences stage's first attendee list 10 s late, once. Otherwise that stage
    // lasted some 70 ms, within the source's rate limit, and a loaded machine's poll could miss it.
    const late = await s.box.json<{ id: number }>(['admin', 'faults', 'add', '--route', 'GET /online_conferences/{online_conference_id}/attendees', '--latency', '10s', '--times', '1']);
    const child = spawn(process.execPath, [BIN, ...args], { env: s.box.env(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const stateFile = join(box.dataDir, 'mirror-state.json');
    const exited = new Promise((resolve) => child.on('exit', resolve));
    for (;;) {
      const stage = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')).stage : 'users';
      if (stage === 'conferences') break;
      if (child.exitCode !== null) throw new Error(`the mirror ended (exit ${child.exitCode}) before it could be interrupted: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    await exited;
    expect((await s.box.run(['admin', 'faults', 'remove', String(late.id)])).code).toBe(0);
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).stage).not.toBe('done');
    const r = await s.box.run([...args, '--resume', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const whole = await s.mirrorInto(['--anonymize', '--seed', 'k']);
    const dump = (b: Sandbox) => {
      const db = new Database(join(b.dataDir, 'confctl.db'), { readonly: true });
      try {
        return ['users', 'customers', 'conferences', 'conference_attendees', 'recordings', 'conference_accounts'].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY id`).all());
      } finally {
        db.close();
      }
    };
    expect(dump(box)).toEqual(dump(whole.box));
  });

  it.sequential('--resume completes a mirror interrupted during the conferences', async () => {
    const { box, out } = await s.mirrorInto();
    const stateFile = join(box.dataDir, 'mirror-state.json');
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    expect(state.stage).toBe('done');
    // As if the run had stopped after the customers, and a conference's rows half written.
    const db = new Database(join(box.dataDir, 'confctl.db'));
    db.exec('DELETE FROM recordings WHERE online_conference_id > 1; DELETE FROM conference_attendees WHERE online_conference_id > 1; DELETE FROM conferences WHERE id > 1');
    db.close();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(stateFile, JSON.stringify({ ...state, stage: 'conferences', page: 1, taken: 0 }));
    const r = await s.box.run(['mirror', '--from-profile', 'local', '--to-data', box.dataDir, '--resume', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const mirror = await serveMirror(box, out);
    const conferences = (await rowsOf(s.client, 'listConferences', {}, { with_trashed: true })).rows;
    expect((await rowsOf(mirror, 'listConferences', {}, { with_trashed: true })).rows).toEqual(conferences.map(noBacker));
    for (const c of conferences) {
      expect(await rowsOf(mirror, 'listConferenceAttendees', { online_conference_id: c.id })).toEqual(await rowsOf(s.client, 'listConferenceAttendees', { online_conference_id: c.id }));
    }
  });
});

describe.concurrent('e2e: mirror --to-database', () => {
  const s = useSource();
  it.sequential('builds the mirror in a PostgreSQL database (through admin copy), which then serves the same lists', async () => {
    const box = new Sandbox('postgres');
    s.keep(box);
    const url = (await box.useDatabase())!;
    const r = await s.box.run(['mirror', '--from-profile', 'local', '--to-database', url, '--media', join(box.dataDir, 'media'), '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.target).toBe(url);
    const mirror = await serveMirror(box, out);
    for (const id of ['listUsers', 'listCustomers'] as const) {
      expect(await rowsOf(mirror, id, {}, { with_trashed: true })).toEqual(await rowsOf(s.client, id, {}, { with_trashed: true }));
    }
    const recordings = (await rowsOf(mirror, 'listConferenceRecordings', { online_conference_id: 4 })).rows;
    const { data } = await mirror.call('getRecordingUrl', { params: { online_conference_id: 4, online_conference_recording_id: recordings.find((x) => x.status === 3).id } });
    expect((await fetch(data.url)).status).toBe(200);
  });
});

describe.concurrent('mirror: progress', () => {
  const s = useSource();
  it.sequential('is drawn on stderr when it is a terminal, and cleared at the end; never in a pipe', async () => {
    const { Readable } = await import('node:stream');
    const { createStreams, processContext } = await import('../../src/cli/context.js');
    const { openProfiles } = await import('../../src/config/profiles.js');
    const { runCli } = await import('../../src/cli/main.js');
    const run = async (tty: boolean) => {
      const box = new Sandbox();
      s.keep(box);
      let out = '';
      let err = '';
      const env = s.box.env() as Record<string, string>;
      const stdin = Object.assign(Readable.from([]), { isTTY: false });
      const streams = createStreams({ stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s), isTTY: tty }, stdin }, env);
      const code = await runCli(['mirror', '--from-profile', 'local', '--to-data', box.dataDir, '--limit-per-kind', '3', '-o', 'json'], { ...processContext(), env, streams, config: async () => openProfiles({ env }), readConfig: undefined });
      expect(code, err).toBe(0);
      expect(JSON.parse(out).counts.conferences).toBe(3);
      return err;
    };
    const drawn = await run(true);
    expect(drawn).toMatch(/\rMirroring customers: 3 users, \d+ customers/);
    expect(drawn).toContain('\rMirroring done: ');
    expect(drawn.endsWith('\r')).toBe(true);
    expect(await run(false)).toBe('');
    // Its own timeout: it imports the CLI's sources through vitest's transform and runs two mirrors
    // paced to the source's rate limit, and a loaded whole run once took over the default 20 s.
  }, 60_000);
});

describe.concurrent('e2e: mirror of a conference no user owns', () => {
  const s = useSource();
  it.sequential('skips it and counts it (the API lists conference accounts per user only)', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = join(s.box.root, 'accounts.json');
    writeFileSync(file, JSON.stringify([{ owner_type: 'Customer', owner_id: 1, name: 'Desk room' }]));
    expect((await s.box.run(['admin', 'import', 'conference-accounts', file])).code).toBe(0);
    const db = new Database(join(s.box.dataDir, 'confctl.db'), { readonly: true });
    const account = db.prepare("SELECT id FROM conference_accounts WHERE name = 'Desk room'").pluck().get() as number;
    db.close();
    const created = await s.box.run(['conferences', 'create', '--account', String(account), '--public-id', 'desk', '--title', 'Desk', '--private', '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    const { out } = await s.mirrorInto();
    expect(out.counts).toMatchObject({ conferences: 4, skipped_conferences: 1 });
  });
});
