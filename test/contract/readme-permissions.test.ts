import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/contract/operations-meta.js';

/** The manual's permissions list (docs/administration-and-backups.md, Local administration) names exactly the known permissions. */
describe('the manual\'s permissions', () => {
  it('lists every permission admin keys create accepts, and no other', () => {
    const readme = readFileSync(resolve(__dirname, '../../docs/administration-and-backups.md'), 'utf8').replace(/\s+/g, ' ');
    const list = /The permissions: (.*?)\. /.exec(readme)?.[1] ?? '';
    const named = [...list.matchAll(/`([a-z_.*]+)`/g)].map((m) => m[1]);
    expect(named.sort()).toEqual([...ALL_PERMISSIONS]);
  });
});
