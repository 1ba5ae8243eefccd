import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { ADDRESS_PARTS, CODE_LABELS, OPERATION_RESOURCE, RESOURCE_FIELDS } from '../../src/contract/resource-fields.js';
import * as resources from '../../src/contract/resources.js';

/** The zod-free field lists must say what the schemas say. */
describe('resource fields (zod-free) match the schemas', () => {
  it.each(Object.keys(RESOURCE_FIELDS))('%s', (name) => {
    const schema = (resources as unknown as Record<string, z.ZodObject>)[name];
    expect(RESOURCE_FIELDS[name as keyof typeof RESOURCE_FIELDS]).toEqual(Object.keys(schema.shape));
  });
  it('each operation names the resource its schema table names', () => {
    for (const op of OPERATIONS) {
      const schema = (resources as unknown as Record<string, unknown>)[OPERATION_RESOURCE[op.id]];
      expect(schema, op.id).toBe(op.resource);
    }
  });
  it('address parts and status labels', () => {
    expect(ADDRESS_PARTS).toEqual(resources.ADDRESS_FIELDS);
    expect(CODE_LABELS.User?.status).toEqual(Object.fromEntries(Object.entries(resources.USER_STATUS).map(([k, v]) => [v, k])));
    expect(CODE_LABELS.OnlineConferenceRecording?.status).toEqual(Object.fromEntries(Object.entries(resources.RECORDING_STATUS).map(([k, v]) => [v, k])));
  });
});
