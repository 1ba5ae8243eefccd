import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, Sandbox } from './harness.js';

/**
 * `--media DIR`: recording files live outside the data directory (a volume that several
 * instances share). serve's demo files, `admin recordings finish` and the signed download all use
 * it; `admin backup`/`restore` carry its files. On PostgreSQL the admin commands reach the
 * database through CONFCTL_DATABASE_URL.
 */
describe.each(BACKENDS)('e2e: --media outside the data directory (serve on %s)', (backend) => {
  const box = new Sandbox(backend);
  const shared = join(box.root, 'shared-media');
  const media = randomBytes(64 * 1024 + 5);
  const file = join(box.root, 'talk.wav');

  beforeAll(async () => {
    writeFileSync(file, media);
    await box.serve(['--demo', '--rate-limit', 'off', '--media', shared]);
  });
  afterAll(() => box.dispose());

  it('serve --demo writes its recordings into --media, not into the data directory', () => {
    expect(readdirSync(join(shared, 'recordings')).length).toBeGreaterThan(0);
    expect(existsSync(join(box.dataDir, 'media'))).toBe(false);
  });

  it('a recording finished by admin --media downloads from serve --media', async () => {
    const [account] = await box.json<any[]>(['users', 'accounts', '1']);
    const conference = await box.json(['conferences', 'create', '--account', String(account.id), '--public-id', 'media-dir', '--title', 'Shared media', '--private']);
    const started = await box.json(['admin', 'conferences', 'start', String(conference.id)]);
    await box.json(['admin', 'conferences', 'end', String(conference.id)]);
    const finished = await box.json(['admin', 'recordings', 'finish', String(started.recording.id), '--file', file, '--media', shared]);
    expect(finished.status).toBe(3);
    expect(readFileSync(join(shared, finished.path)).equals(media)).toBe(true);
    expect(existsSync(join(box.dataDir, 'media', finished.path))).toBe(false);

    const link = await box.json(['recordings', 'url', String(conference.id), String(started.recording.id)]);
    const res = await fetch(link.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(media)).toBe(true);
  });

  // SQLite only: admin backup and restore copy a data directory; a PostgreSQL instance is backed up with pg_dump.
  it.runIf(backend === 'sqlite')('admin backup --media takes the shared files, restore --media puts them into a new directory', async () => {
    const backup = join(box.root, 'backup');
    const made = await box.json(['admin', 'backup', '--to', backup, '--media', shared]);
    expect(made.media_files).toBe(readdirSync(join(shared, 'recordings')).length);
    const restoredMedia = join(box.root, 'restored-media');
    const restored = await box.json(['admin', 'restore', '--from', backup, '--data', join(box.root, 'restored'), '--media', restoredMedia]);
    expect(restored.media).toBe(restoredMedia);
    expect(readdirSync(join(restoredMedia, 'recordings')).sort()).toEqual(readdirSync(join(shared, 'recordings')).sort());
    expect(existsSync(join(box.root, 'restored', 'media'))).toBe(false);

    const again = await box.run(['admin', 'restore', '--from', backup, '--data', join(box.root, 'restored-2'), '--media', restoredMedia]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('is not empty');
  });
});
