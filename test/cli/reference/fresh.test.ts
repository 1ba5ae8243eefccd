/**
 * The generated command reference (docs/commands/, man/, package.json's "man") matches the code:
 * generated in memory and compared with the files in the repository.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceDrift } from '../../../src/cli/reference/files.js';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('the command reference in the repository', () => {
  it('is what the command tree generates now', async () => {
    const drift = await referenceDrift(ROOT);
    expect(drift, `the command reference is out of date: run \`npm run docs:gen\` and commit docs/commands/, man/ and package.json\n${drift.join('\n')}`).toEqual([]);
  });
});
