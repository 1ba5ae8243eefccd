import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

/**
 * Durability across a crash: a `serve` under write load (8 clients creating customers) is killed
 * with SIGKILL twice, each time after it acknowledged ACKS_PER_ROUND writes; a third start must
 * hold every acknowledged write, and SQLite's integrity check must pass. (WAL with
 * `synchronous=NORMAL` keeps every committed transaction across a process crash.)
 */
const ACKS_PER_ROUND = 120;
const CLIENTS = 8;
const box = new Sandbox();
let headers: Record<string, string>;

beforeAll(async () => {
  await box.json(['admin', 'init']);
  const key = await box.json(['admin', 'keys', 'create', '--name', 'load', '--permissions', 'customers.*']);
  headers = { 'x-access-key-id': key.id, 'x-access-key-secret': key.secret, 'content-type': 'application/json' };
});
afterAll(() => box.dispose());

/** Writes until `acks` writes are acknowledged, then kills the server mid-load; answers the acknowledged emails. */
async function loadThenKill(round: number): Promise<string[]> {
  const { baseUrl, child } = await box.serve(['--rate-limit', 'off', '--no-profile']);
  const acked: string[] = [];
  let n = 0;
  let killed = false;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const client = async () => {
    while (!killed) {
      const email = `r${round}-${n++}@crash.test`;
      try {
        const res = await fetch(`${baseUrl}/customers`, { method: 'POST', headers, body: JSON.stringify({ first_name: 'C', last_name: String(n), email }) });
        if (res.status === 200) acked.push(email);
        else expect.fail(`write answered ${res.status}: ${await res.text()}`);
      } catch {
        // A write cut off by the kill: not acknowledged, so it may or may not be there.
        return;
      }
      if (!killed && acked.length >= ACKS_PER_ROUND) {
        killed = true;
        child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  await exited;
  expect(child.signalCode).toBe('SIGKILL');
  return acked;
}

it('keeps every acknowledged write across two kill -9 under write load; integrity ok', async () => {
  const acked = [...(await loadThenKill(1)), ...(await loadThenKill(2))];
  expect(acked.length).toBeGreaterThanOrEqual(2 * ACKS_PER_ROUND);

  // A third start recovers the WAL and serves every acknowledged write.
  const { baseUrl } = await box.serve(['--rate-limit', 'off', '--no-profile']);
  const listed = new Set<string>();
  for (let page = 1; ; page++) {
    const body = (await (await fetch(`${baseUrl}/customers?page_size=100&page_number=${page}`, { headers })).json()) as { data: { email: string }[]; next_page_url: string | null };
    for (const c of body.data) listed.add(c.email);
    if (!body.next_page_url) break;
  }
  expect(acked.filter((email) => !listed.has(email))).toEqual([]);

  const db = new Database(join(box.dataDir, 'confctl.db'), { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
  } finally {
    db.close();
  }
}, 90_000);
