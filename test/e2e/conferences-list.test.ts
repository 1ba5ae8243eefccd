import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * `confctl conferences list` through the built bin against `serve --demo`, whose four
 * conferences are: weekly-sync and planning (not started), customer-demo (running), retro (ended).
 */
describe.each(BACKENDS)('e2e: conferences list (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  beforeAll(async () => {
    await box.serve(['--demo', '--rate-limit', 'off']);
  });
  afterAll(() => box.dispose());

  const publicIds = (rows: { public_id: string }[]) => rows.map((r) => r.public_id);

  it('lists the demo conferences and filters by whether they occurred', async () => {
    expect(publicIds(await box.json(['conferences', 'list']))).toEqual(['demo-weekly-sync', 'demo-planning', 'demo-customer-demo', 'demo-retro']);
    expect(publicIds(await box.json(['conferences', 'list', '--filter', 'is_occurred=false']))).toEqual(['demo-weekly-sync', 'demo-planning']);
    const running = await box.json(['conferences', 'list', '--all', '--filter', 'is_occurred=true', '--filter', 'ended_at:null']);
    expect(running).toEqual([expect.objectContaining({ public_id: 'demo-customer-demo', is_occurred: true, ended_at: null })]);
  });

  it('sorts, pages through --all, and writes CSV', async () => {
    expect(publicIds(await box.json(['conferences', 'list', '--sort', '-title']))).toEqual(['demo-weekly-sync', 'demo-retro', 'demo-planning', 'demo-customer-demo']);
    expect(publicIds(await box.json(['conferences', 'list', '--all', '--page-size', '1', '--filter', 'is_public=1']))).toEqual(['demo-weekly-sync', 'demo-planning', 'demo-retro']);
    const csv = await box.run(['conferences', 'list', '--filter', 'title~retro', '-o', 'csv', '--fields', 'public_id,title,is_public,is_occurred']);
    expect([csv.code, csv.stdout]).toEqual([0, 'public_id,title,is_public,is_occurred\ndemo-retro,Sprint retrospective,true,true\n']);
  });

  it('refuses a filter it cannot read before any request (exit 2)', async () => {
    const bad = await box.run(['conferences', 'list', '--filter', 'name=x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("cannot filter by 'name'");
  });
});
