import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../tmp.js';
import { fake } from './helpers.js';

/** The help says what a snapshot holds and how it differs from a backup, on both sides. */
describe('admin snapshot help', () => {
  const help = async (path: string[]) => {
    const f = fake();
    expect(await f.run([...path, '--help'])).toBe(0);
    return f.stdout().replace(/\s+/g, ' ');
  };

  it('says what is and is not in a snapshot, and that it is not a backup', async () => {
    const text = await help(['admin', 'snapshot']);
    expect(text).toContain('webhook outbox');
    expect(text).toContain('the recording files');
    expect(text).toContain('Not in a snapshot: instance.json');
    expect(text).toContain('rate-limit windows');
    expect(text).toContain("Not a backup: 'admin backup' makes a cold copy");
    expect(text).toContain('POST /_confctl/snapshots/NAME/restore');
  });

  it('admin backup and admin restore point at snapshots for resetting in place', async () => {
    for (const verb of ['backup', 'restore']) {
      expect(await help(['admin', verb])).toContain("A backup is a cold copy for safekeeping, restored into a new or empty data directory");
      expect(await help(['admin', verb])).toContain("use 'confctl admin snapshot save|restore' instead");
    }
  });

  it('refuses a bad name with exit 2 before opening anything', async () => {
    const data = join(tempDir(), 'data');
    for (const verb of ['save', 'restore', 'delete']) {
      const f = fake();
      expect(await f.run(['admin', 'snapshot', verb, 'a/b', '--data', data])).toBe(2);
      expect(f.stderr()).toContain("The snapshot name 'a/b' is invalid");
    }
    expect(existsSync(data)).toBe(false);
  });
});
