import { afterAll, beforeAll, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

/**
 * The attendee maximum across two `serve` processes on one data directory: unlike requests to one
 * process (which better-sqlite3 runs one at a time), requests to two processes interleave between
 * the count and the inserts, so only the transaction around them keeps the maximum.
 */
const MAX = 200;
const PER_REQUEST = 200;
const ROUNDS = 5;
const box = new Sandbox();
let origins: string[];
let headers: Record<string, string>;
let accountId: number;

beforeAll(async () => {
  await box.json(['admin', 'init']);
  await box.run(['admin', 'seed', '--demo']);
  const key = await box.json(['admin', 'keys', 'create', '--name', 'race', '--permissions', '*']);
  headers = { 'x-access-key-id': key.id, 'x-access-key-secret': key.secret, 'content-type': 'application/json' };
  const args = ['--rate-limit', 'off', '--max-attendees', String(MAX), '--no-profile'];
  origins = (await Promise.all([box.serve(args), box.serve(args)])).map((s) => new URL(s.baseUrl).origin);
  const accounts = await call(origins[0], 'GET', '/users/1/online_conference_accounts');
  if (!accounts.body?.data?.length) throw new Error(accounts.text);
  accountId = accounts.body.data[0].id;
}, 60_000);
afterAll(() => box.dispose());

async function call(origin: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${origin}/api/public/v2.0${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

it('never passes the maximum when two processes add attendees to one conference at once', async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const created = await call(origins[0], 'POST', '/online_conferences', { online_conference_account_id: accountId, public_id: `race-${round}`, title: `Race ${round}`, is_public: false });
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    // 4 requests, each filling the conference alone, 2 to each process: exactly one may succeed.
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call(origins[i % 2], 'POST', `/online_conferences/${id}/attendees`, Array.from({ length: PER_REQUEST }, (_, j) => ({ email: `r${round}-${i}-${j}@race.test`, name: `R ${i} ${j}` }))),
      ),
    );
    for (const r of results) expect([200, 409], r.text).toContain(r.status);
    const ok = results.filter((r) => r.status === 200);
    expect(results.filter((r) => r.status === 409).every((r) => r.text === 'Cannot exceed maximum attendee count.')).toBe(true);
    expect(ok).toHaveLength(1);
    const stored = [];
    for (let page = 1; page <= 3; page++) stored.push(...(await call(origins[1], 'GET', `/online_conferences/${id}/attendees?page_size=100&page_number=${page}`)).body.data);
    expect(stored).toHaveLength(1 + MAX);
    const emails = stored.slice(1).map((a: { email: string }) => a.email).sort();
    expect(emails).toEqual(ok.flatMap((r) => r.body.data.map((a: { email: string }) => a.email)).sort());
  }
}, 60_000);
