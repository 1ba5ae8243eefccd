import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { instanceSecret, prepareDataDir, resolveDataDir } from '../../src/local/data-dir.js';

describe('data directory', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const d = mkdtempSync(join(tmpdir(), 'confctl-data-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('resolves --data, then CONFCTL_DATA, then XDG_DATA_HOME, then ~/.local/share', () => {
    expect(resolveDataDir('/x', { CONFCTL_DATA: '/y' })).toBe('/x');
    expect(resolveDataDir(undefined, { CONFCTL_DATA: '/y', XDG_DATA_HOME: '/z' })).toBe('/y');
    expect(resolveDataDir(undefined, { XDG_DATA_HOME: '/z' })).toBe(join('/z', 'confctl'));
    expect(resolveDataDir(undefined, {})).toMatch(/\.local[\\/]share[\\/]confctl$/);
  });

  it('lays out confctl.db, media/ and instance.json', () => {
    const dir = join(scratch(), 'nested', 'data');
    const layout = prepareDataDir(dir);
    expect(layout).toEqual({ dir, database: join(dir, 'confctl.db'), mediaDir: join(dir, 'media'), instanceFile: join(dir, 'instance.json') });
    expect(statSync(layout.mediaDir).isDirectory()).toBe(true);
  });

  it('creates the signing secret once, mode 0600, and keeps it', () => {
    const layout = prepareDataDir(scratch());
    const first = instanceSecret(layout);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(layout.instanceFile).mode & 0o777).toBe(0o600);
    expect(instanceSecret(layout)).toBe(first);
    expect(JSON.parse(readFileSync(layout.instanceFile, 'utf8')).signing_secret).toBe(first);
  });

  it('refuses an instance file without a usable secret instead of replacing it', () => {
    const layout = prepareDataDir(scratch());
    writeFileSync(layout.instanceFile, '{"signing_secret":"short"}');
    expect(() => instanceSecret(layout)).toThrow(/no valid signing_secret/);
    expect(readFileSync(layout.instanceFile, 'utf8')).toBe('{"signing_secret":"short"}');
  });
});
