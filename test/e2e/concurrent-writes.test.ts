import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

interface Answer {
  status: number;
  body: string;
}

/** Sends one JSON request with the key; answers status and body text. */
function sender(baseUrl: string, key: { key_id: string; secret: string }) {
  return async (method: string, path: string, body: unknown): Promise<Answer> => {
    const res = await fetch(baseUrl + path, {
      method,
      headers: { 'x-access-key-id': key.key_id, 'x-access-key-secret': key.secret, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.text() };
  };
}

/** Rows of a table, read straight from the data directory's database (readers never block writers). */
function column(dataDir: string, sql: string): unknown[] {
  const db = new Database(join(dataDir, 'confctl.db'), { readonly: true });
  try {
    return db.prepare(sql).pluck().all();
  } finally {
    db.close();
  }
}

/**
 * The documented concurrent uses of one data directory, with real processes: admin commands
 * beside a `serve` that clients write through, and two `serve` processes. Nothing may fail
 * "database is locked": no 5xx (no 500 and no 503), no failed admin command, nothing lost.
 */
describe('e2e: concurrent writers on one data directory', () => {
  let box: Sandbox;
  afterEach(() => box.dispose());

  it('admin import of 10,000 customers while two clients create customers through the API: both succeed, nothing lost', async () => {
    box = new Sandbox();
    const key = await box.json<{ key_id: string; secret: string }>(['admin', 'init', '--no-profile']);
    const { baseUrl } = await box.serve(['--rate-limit', 'off', '--no-profile']);
    const file = join(box.root, 'customers.ndjson');
    writeFileSync(file, Array.from({ length: 10_000 }, (_, i) => JSON.stringify({ first_name: `Imp${i}`, last_name: 'Orted', email: `imported${i}@import.example.com` })).join('\n'));

    const send = sender(baseUrl, key);
    let importing = true;
    const answers: Answer[] = [];
    const acked: string[] = [];
    const client = async (name: string) => {
      // Each client keeps writing until the import has finished, and at least 20 times.
      for (let i = 0; importing || i < 20; i++) {
        const email = `${name}-${i}@api.example.com`;
        const a = await send('POST', '/customers', { first_name: name, last_name: String(i), email });
        answers.push(a);
        if (a.status === 200) acked.push(email);
      }
    };
    const clients = [client('a'), client('b')];
    while (answers.length < 10) await new Promise((r) => setTimeout(r, 20));
    const imported = await box.run(['admin', 'import', 'customers', file, '-o', 'json']);
    importing = false;
    await Promise.all(clients);

    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ kind: 'customers', created: 10_000 });
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const emails = new Set(column(box.dataDir, 'SELECT email FROM customers') as string[]);
    expect(emails.size).toBe(10_000 + acked.length);
    expect(acked.filter((e) => !emails.has(e))).toEqual([]);
    expect(Array.from({ length: 10_000 }, (_, i) => `imported${i}@import.example.com`).filter((e) => !emails.has(e))).toEqual([]);
  }, 180_000);

  it('two serve processes on one data directory under concurrent writes answer no 5xx', async () => {
    box = new Sandbox();
    const key = await box.json<{ key_id: string; secret: string }>(['admin', 'init', '--no-profile']);
    await box.run(['admin', 'seed', '--demo']);
    const servers = [await box.serve(['--rate-limit', 'off', '--no-profile']), await box.serve(['--rate-limit', 'off', '--no-profile'])];
    const sends = servers.map((s) => sender(s.baseUrl, key));

    // Conference creation reads (references, public_id) and then writes in one transaction: the
    // pattern a deferred transaction cannot survive; customer creates and updates are single writes.
    const answers: Answer[] = [];
    const worker = async (w: number) => {
      const send = sends[w % 2];
      for (let i = 0; i < 25; i++) {
        const id = `w${w}-${i}`;
        const created = await send('POST', '/online_conferences', {
          online_conference_account_id: 1,
          public_id: `load-${id}`,
          title: `Load ${id}`,
          is_public: false,
          online_conference_attendees: [{ email: `guest-${id}@example.com`, name: 'Guest' }],
        });
        const customer = await send('POST', '/customers', { first_name: 'Load', last_name: id, email: `load-${id}@example.com` });
        answers.push(created, customer);
        if (customer.status === 200) answers.push(await send('PATCH', `/customers/${JSON.parse(customer.body).data.id}`, { middle_name: 'Q' }));
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));

    expect(answers).toHaveLength(8 * 25 * 3);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(column(box.dataDir, "SELECT count(*) FROM conferences WHERE public_id LIKE 'load-%'")).toEqual([200]);
    expect(column(box.dataDir, "SELECT count(*) FROM customers WHERE email LIKE 'load-%' AND middle_name = 'Q'")).toEqual([200]);
  }, 180_000);
});
