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

  it('serve --demo adds the demo data to the tenant admin init made, its key kept; the next start adds nothing', async () => {
    const fresh = new Sandbox(backend);
    try {
      const init = await fresh.json(['admin', 'init', '--no-profile']);
      const first = await fresh.serve(['--demo', '--no-profile']);
      expect(first.output()).toMatch(/^Demo data loaded: 25 users, 30 customers, 4 conferences, 5 recordings\.$/m);
      expect(first.output()).not.toContain('Created tenant');
      const rows = async () => {
        const store = await fresh.openStore();
        try {
          const tenants = await store.tenants.list();
          const all = { page_size: 1, page_number: 1, with_trashed: true, order_by: 'id', order_direction: 'asc' as const, filter: null };
          const conferences = await store.conferences.list(tenants[0].id, all);
          return { tenants: tenants.map((t) => t.primary_domain), users: (await store.users.list(tenants[0].id, all)).total,
            customers: (await store.customers.list(tenants[0].id, all)).total, conferences: conferences.total, keys: (await store.keys.list()).map((k) => k.id) };
        } finally {
          await store.close();
        }
      };
      expect(await rows()).toEqual({ tenants: [init.tenant], users: 25, customers: 30, conferences: 4, keys: [init.key_id] });
      // The served API answers with the demo's live users, to the key admin init printed.
      const users = await fresh.run(['api', '/users?page_size=1'], { env: { CONFCTL_BASE_URL: first.baseUrl, CONFCTL_KEY_ID: init.key_id, CONFCTL_KEY_SECRET: init.secret } });
      expect(users.code, users.stderr).toBe(0);
      expect(JSON.parse(users.stdout)).toMatchObject({ total: 22, data: [{ email: 'ada.lovelace@demo.example.com' }] });
      const second = await fresh.serve(['--demo', '--no-profile']);
      expect(second.output()).toMatch(/^Demo data already present: nothing was added\.$/m);
      expect(await rows()).toEqual({ tenants: [init.tenant], users: 25, customers: 30, conferences: 4, keys: [init.key_id] });
    } finally {
      await fresh.dispose();
    }
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
