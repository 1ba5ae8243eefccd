import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract/openapi.js';

type Doc = { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };

describe('OpenAPI responses', () => {
  it('lists 409 exactly for the operations that can answer it (decisions §2)', () => {
    const doc = openApiDocument() as unknown as Doc;
    const with409 = Object.values(doc.paths)
      .flatMap((methods) => Object.values(methods))
      .filter((op) => '409' in op.responses)
      .map((op) => op.operationId)
      .sort();
    expect(with409).toEqual([
      'addConferenceAttendees',
      'createAttendeeJoinToken',
      'createConference',
      'deleteConference',
      'getRecordingUrl',
      'removeConferenceAttendee',
      'updateConference',
    ]);
  });
});
