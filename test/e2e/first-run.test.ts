import { afterAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

describe.each(BACKENDS)('e2e: a first local instance (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  afterAll(() => box.dispose());

  it('serve --demo says it loaded the demo data, and on the next start that it was already there', async () => {
    const first = await box.serve(['--demo']);
    expect(first.output()).toMatch(/\nDemo data loaded: \d+ users, \d+ customers, \d+ conferences, \d+ recordings\.\n/);
    const second = await box.serve(['--demo']);
    expect(second.output()).toContain('\nDemo data already present: nothing was added.\n');
    expect(second.output()).not.toContain('Demo data loaded');
    // The second start re-pointed the profile of this same data directory without asking.
    expect(second.output()).toContain(`Profile 'local' points at ${second.baseUrl}`);
  });

  it('login --domain against the plain-http local server says to use --base-url http://', async () => {
    const { baseUrl } = await box.serve();
    const host = new URL(baseUrl).host;
    const r = await box.run(['login', '--name', 'x', '--domain', host, '--key-id', 'ak_x', '--secret-stdin'], { input: 'secret\n' });
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(`error: cannot reach https://${host}: `);
    expect(r.stderr).toContain(`give --base-url http://${host}/api/public/v2.0 instead of --domain`);
    expect(r.stderr).not.toContain('ssl3_get_record');
  });
});
