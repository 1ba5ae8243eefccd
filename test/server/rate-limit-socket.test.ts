import { afterEach, expect, it } from 'vitest';
import { closeGracefully } from '../../src/server/index.js';
import { listen } from './conferences-fixture.js';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(async () => {
  await closeGracefully(f.app.server, 1000);
  f.store.close();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('over real sockets, a flood of made-up keys and wrong secrets never turns the victim away', { timeout: 30_000 }, async () => {
  // The real clock: the victim paces itself to 4 requests a second (gaps of at least 250 ms), under its limit of 5.
  f = setup({ rateLimit: { client: 5, tenant: 10 } });
  const origin = await listen(f.app.server);
  let flooding = true;
  const flood: number[] = [];
  const attacker = async (n: number) => {
    for (let i = 0; flooding; i++) {
      const headers =
        i % 2 ? { 'x-access-key-id': `ak_${String(n * 100_000 + i).padStart(24, '0')}`, 'x-access-key-secret': 'x'.repeat(48) }
        : { 'x-access-key-id': f.admin['x-access-key-id'], 'x-access-key-secret': 'wrong' };
      const res = await fetch(`${origin}${API}/users`, { headers });
      await res.arrayBuffer();
      flood.push(res.status);
    }
  };
  const attackers = [attacker(1), attacker(2), attacker(3)];
  const victim: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await fetch(`${origin}${API}/users`, { headers: f.admin });
    await res.arrayBuffer();
    victim.push(res.status);
    await pause(250);
  }
  flooding = false;
  await Promise.all(attackers);
  expect(victim).toEqual(Array(8).fill(200));
  expect(flood.filter((s) => s === 429).length).toBeGreaterThan(0); // the flood ran over its own address's limit
  expect(flood.every((s) => s === 401 || s === 429)).toBe(true);
});
