import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminDatabaseFixture } from './admin-database-fixture.js';

/**
 * `admin copy` refuses a source whose recording files it cannot find (exit 2), before it writes
 * anything: a --media directory that does not exist, or one that lacks the files of Finished
 * recordings (which, copied without them, would each answer 404).
 */
const { database, admin, schemaExists } = adminDatabaseFixture();

describe('admin copy: the recording files', () => {
  it('refuses a --media directory that does not exist (exit 2), writing nothing', async () => {
    const url = await database();
    const f = admin();
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'seed', '--demo']);
    const nowhere = join(f.dataDir, '..', 'no-such-media');
    expect(await f.run(['admin', 'copy', '--from', f.dataDir, '--media', nowhere, '--to', url])).toBe(2);
    expect(f.stderr()).toContain(`--media ${nowhere} is not a directory`);
    expect(await f.run(['--dry-run', 'admin', 'copy', '--from', f.dataDir, '--media', nowhere, '--to', url])).toBe(2);
    expect(await schemaExists(url)).toBe(false);
  });

  it('refuses a media directory without the files of Finished recordings (exit 2), naming how many, also in a dry run', async () => {
    const url = await database();
    const f = admin();
    await f.json(['admin', 'init', '--no-profile']);
    await f.json(['admin', 'seed', '--demo']);
    const empty = join(f.dataDir, '..', 'empty-media');
    mkdirSync(empty);
    const mediaTo = join(f.dataDir, '..', 'target-media');
    expect(await f.run(['admin', 'copy', '--from', f.dataDir, '--media', empty, '--media-to', mediaTo, '--to', url])).toBe(2);
    expect(f.stderr()).toContain(`2 of the 2 Finished recordings have no file in ${empty}; give the instance's media directory with --media`);
    expect(await f.run(['--dry-run', 'admin', 'copy', '--from', f.dataDir, '--media', empty, '--media-to', mediaTo, '--to', url])).toBe(2);
    expect(f.stderr()).toContain('2 of the 2 Finished recordings have no file');

    // One file gone from the instance's own media directory (the default --media): refused, naming the one.
    const recordings = join(f.dataDir, 'media', 'recordings');
    rmSync(join(recordings, readdirSync(recordings)[0]));
    expect(await f.run(['admin', 'copy', '--from', f.dataDir, '--media-to', mediaTo, '--to', url])).toBe(2);
    expect(f.stderr()).toContain(`1 of the 2 Finished recordings have no file in ${join(f.dataDir, 'media')}`);
    expect(await schemaExists(url)).toBe(false);
  });
});
