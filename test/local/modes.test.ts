import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finishRecording, startConference, endConference } from '../../src/admin/lifecycle.js';
import { exposureWarning } from '../../src/local/data-dir.js';
import { initFirstTenant } from '../../src/local/init.js';
import { atOnce, openLocalSync } from '../at-once.js';
import { seedDemo } from '../../src/admin/seed/index.js';
import { fake } from '../cli/helpers.js';

const mode = (path: string) => statSync(path).mode & 0o777;

/**
 * Data at rest is the owner's only: personal data and key digests in the database, the signing
 * secret, recordings. The umask a process runs with (0022 is common) must not widen them.
 */
describe.skipIf(process.platform === 'win32')('data directory modes', () => {
  let root: string;
  let umask: number;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'confctl-modes-'));
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it('creates the database, its -wal and -shm files, instance.json and media files 0600, directories 0700', () => {
    const dir = join(root, 'new', 'data');
    const warnings: string[] = [];
    const local = openLocalSync(dir, {}, (m) => warnings.push(m));
    try {
      const tenant = atOnce(initFirstTenant(local.store))!.tenant;
      atOnce(seedDemo(local.store, tenant.id, { mediaDir: local.layout.mediaDir }));
      const conference = local.store.conferences.insert(tenant.id, { online_conference_account_id: 1, public_id: 'modes', title: 'Modes', is_public: false });
      atOnce(startConference(local.store, tenant.id, conference.id, new Date('2026-01-01T10:00:00Z')));
      const [recording] = atOnce(endConference(local.store, tenant.id, conference.id, new Date('2026-01-01T10:00:05Z'))).recordings;
      const source = join(root, 'talk.wav');
      writeFileSync(source, 'RIFF', { mode: 0o644 });
      atOnce(finishRecording(local.store, tenant.id, recording.id, { mediaDir: local.layout.mediaDir, file: source, now: new Date('2026-01-01T10:01:00Z') }));

      for (const d of [join(root, 'new'), dir, local.layout.mediaDir, join(local.layout.mediaDir, 'recordings')]) expect([d, mode(d)]).toEqual([d, 0o700]);
      const files = [local.layout.database, `${local.layout.database}-wal`, `${local.layout.database}-shm`, local.layout.instanceFile];
      const media = local.store.recordings.listByConference(conference.id, { page_size: 10, page_number: 1 }).rows.map((r) => join(local.layout.mediaDir, 'recordings', r.file_name!));
      expect(media).toHaveLength(1);
      for (const f of [...files, ...media, join(local.layout.mediaDir, 'recordings', 'rec-1.wav')]) expect([f, mode(f)]).toEqual([f, 0o600]);
      expect(warnings).toEqual([]);
    } finally {
      local.store.close();
    }
  });

  it('narrows an existing database readable by others to 0600', () => {
    const dir = join(root, 'old');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'confctl.db'), '', { mode: 0o644 });
    chmodSync(join(dir, 'confctl.db'), 0o644);
    const local = openLocalSync(dir, {});
    local.store.close();
    expect(mode(join(dir, 'confctl.db'))).toBe(0o600);
  });

  it('warns once, on stderr, when the data directory itself is accessible to others', () => {
    const dir = join(root, 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const warnings: string[] = [];
    for (let i = 0; i < 2; i++) openLocalSync(dir, {}, (m) => warnings.push(m)).store.close();
    expect(warnings).toEqual([`warning: the data directory ${dir} is accessible to other users (mode 0755); run: chmod 700 '${dir}'`]);
    chmodSync(dir, 0o700);
    expect(exposureWarning(dir)).toBeUndefined();
    chmodSync(dir, 0o750);
    expect(exposureWarning(dir)).toMatch(/mode 0750/);
    expect(exposureWarning(dir, 'win32')).toBeUndefined();
  });

  it('admin commands print the warning on stderr and still run', async () => {
    const dir = join(root, 'cli');
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    const cli = fake();
    try {
      expect(await cli.run(['admin', 'init', '--data', dir, '--no-profile', '-o', 'json'])).toBe(0);
      expect(cli.stderr()).toBe(`warning: the data directory ${dir} is accessible to other users (mode 0755); run: chmod 700 '${dir}'\n`);
      expect(JSON.parse(cli.stdout())).toMatchObject({ tenant: 'localhost' });
    } finally {
      rmSync(cli.configDir, { recursive: true, force: true });
    }
  });
});
