import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFERENCE_LIST, CUSTOMER_LIST, USER_LIST } from '../../src/contract/list-specs.js';

/** The manual's "Filter syntax" (docs/output-and-scripting.md) names each list's filter attributes: they must be the contract's. */
describe('the manual\'s filter attributes', () => {
  const readme = readFileSync(resolve(__dirname, '../../docs/output-and-scripting.md'), 'utf8').replace(/\s+/g, ' ');
  const named = (noun: string) => {
    const m = new RegExp(`${noun} filter on \`([^\`]+)\`|${noun} on \`([^\`]+)\``).exec(readme);
    return (m?.[1] ?? m?.[2] ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  };

  it.each([
    ['Users', USER_LIST],
    ['customers', CUSTOMER_LIST],
    ['conferences', CONFERENCE_LIST],
  ])('%s: the attributes the guide lists are exactly the list\'s filters', (noun, spec) => {
    expect(named(noun).sort()).toEqual(Object.keys(spec.filters).sort());
  });
});
