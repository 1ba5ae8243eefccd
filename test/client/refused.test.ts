import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { NetworkError } from '../../src/client/errors.js';
import { errorLines } from '../../src/cli/errors.js';
import { withProfile } from '../cli/helpers.js';

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** The client's waits, recorded instead of slept (no wall clock). */
function counting(baseUrl: string) {
  const sleeps: number[] = [];
  let tries = 0;
  const client = createClient({ baseUrl, keyId: 'ak_1', secret: 's', sleep: async (ms) => void sleeps.push(ms), onRetry: (i) => void (tries = i.tries) });
  return { client, sleeps, tries: () => tries };
}

describe('a refused connection to a loopback address', () => {
  it('is tried 3 times in all, waiting 250 ms and 500 ms (under 2.5 s with the connects), then says serve may be down', async () => {
    const port = await closedPort();
    const c = counting(`http://127.0.0.1:${port}/api/public/v2.0`);
    const err = await c.client.call('getUser', { params: { user_id: '1' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).tries).toBe(3);
    expect(c.sleeps).toEqual([250, 500]);
    expect(c.sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(2500);
    const lines = errorLines(err);
    expect(lines[0]).toMatch(/ECONNREFUSED.*\(after 3 tries\)/);
    expect(lines[1]).toBe(`hint: is \`confctl serve\` running on port ${port}? Start it with 'confctl serve' (or check --base-url and the profile)`);
  });

  it('localhost counts as loopback too', async () => {
    const port = await closedPort();
    const c = counting(`http://localhost:${port}/api/public/v2.0`);
    const err = (await c.client.call('getUser', { params: { user_id: '1' } }).catch((e: unknown) => e)) as NetworkError;
    expect(err.tries).toBe(3);
    expect(errorLines(err)[1]).toContain(`running on port ${port}?`);
  });

  it('a write is not retried, and gets the same hint', async () => {
    const port = await closedPort();
    const f = await withProfile({ env: { CONFCTL_BASE_URL: `http://127.0.0.1:${port}/api/public/v2.0` } });
    f.ctx.createClient = async (o) => createClient({ ...o, sleep: async () => {} });
    expect(await f.run(['customers', 'create', '--first-name', 'A', '--last-name', 'B', '--email', 'a@example.com'])).toBe(8);
    expect(f.stderr()).toContain(`hint: is \`confctl serve\` running on port ${port}?`);
    expect(f.stderr()).not.toContain('tries');
  });
});
