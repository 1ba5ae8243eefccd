import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/index.js';
import { openApiDocument } from '../../src/contract/openapi.js';

type Json = Record<string, any>;
const doc: Json = openApiDocument('http://localhost:8080');
const operations = Object.values(doc.paths as Json).flatMap((methods: Json) => Object.values(methods)) as Json[];

/** Every node of the document with the path to it. */
function* walk(node: unknown, path: string[] = []): Generator<[string[], Json]> {
  if (node === null || typeof node !== 'object') return;
  if (!Array.isArray(node)) yield [path, node];
  for (const [k, v] of Object.entries(node)) yield* walk(v, [...path, k]);
}

const resolve = (ref: Json): Json => (ref.$ref ? String(ref.$ref).split('/').slice(1).reduce((n: Json, k) => n[k], doc) : ref);

describe('the OpenAPI document', () => {
  it('names its schemas as the hosted service does, and references them', () => {
    const names = ['User', 'Customer', 'Address', 'WorkHours', 'OnlineConference', 'OnlineConferenceAttendee', 'OnlineConferenceRecording',
      'OnlineConferenceAccount', 'ConnectedAccount', 'CalendarEvent', 'ValidationErrorResponse', 'UserList', 'CustomerList'];
    for (const name of names) expect(doc.components.schemas, name).toHaveProperty(name);
    expect(doc.components.schemas.User.properties.work_hours.anyOf[0]).toEqual({ $ref: '#/components/schemas/WorkHours' });
    expect(doc.components.schemas.Customer.properties.address.anyOf[0]).toEqual({ $ref: '#/components/schemas/Address' });
    expect(doc.components.schemas.UserList.properties.data.items).toEqual({ $ref: '#/components/schemas/User' });
    expect(doc.components.schemas.CalendarEvent.properties.online_conference.anyOf[0]).toEqual({ $ref: '#/components/schemas/OnlineConference' });
    for (const op of operations) expect(op.responses['200'].content['application/json'].schema.$ref, op.operationId).toMatch(/^#\/components\/schemas\//);
    // Every reference resolves, and every component is used.
    const refs = new Set([...walk(doc)].filter(([, n]) => typeof n.$ref === 'string').map(([, n]) => n.$ref as string));
    for (const ref of refs) expect(resolve({ $ref: ref }), ref).toBeDefined();
    for (const kind of ['schemas', 'parameters', 'headers', 'responses']) {
      for (const name of Object.keys(doc.components[kind])) expect(refs, `${kind}/${name}`).toContain(`#/components/${kind}/${name}`);
    }
  });

  it('declares the list parameters once, with_trashed as the server reads it', () => {
    expect(Object.keys(doc.components.parameters)).toEqual(expect.arrayContaining(['PageSize', 'PageNumber', 'WithTrashed', 'OrderBy', 'OrderDirection', 'FilterAttribute', 'FilterOperator', 'FilterValue']));
    expect(doc.components.parameters.WithTrashed.schema).toEqual({ type: 'string', enum: ['true', 'false', '1', '0'], default: 'false' });
    expect(doc.components.parameters.PageSize.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 15 });
    expect(doc.paths['/users'].get.description).toContain('Filter attributes (`filter_attribute`): id, first_name');
    const conferences = doc.paths['/online_conferences'].get;
    expect([conferences.operationId, conferences.tags]).toEqual(['listConferences', ['Online Conferences']]);
    expect(conferences.description).toContain('Boolean attributes (is_public, is_occurred) take `true`, `false`, `1` or `0` with every operator.');
    expect(doc.paths['/users'].get.description).not.toContain('Boolean');
  });

  it('gives formats and no ±2^53 bounds', () => {
    const s = doc.components.schemas;
    expect(s.User.properties.email).toEqual({ type: 'string', format: 'email' });
    expect(s.User.properties.id.format).toBe('int64');
    expect(s.User.properties.created_at.format).toBe('date-time');
    expect(s.User.properties.avatar_url).toEqual({ type: ['string', 'null'], format: 'uri' });
    expect(s.TemporaryUrl.properties.url.format).toBe('uri');
    expect(s.CustomerCreateRequest.properties.email.format).toBe('email');
    const bounds = [...walk(doc)].filter(([, n]) => Math.abs(n.minimum) === Number.MAX_SAFE_INTEGER || Math.abs(n.maximum) === Number.MAX_SAFE_INTEGER);
    expect(bounds.map(([p]) => p.join('.'))).toEqual([]);
  });

  it('documents the headers of every response and every status the server answers', () => {
    for (const op of operations) {
      for (const [status, r] of Object.entries(op.responses as Json)) {
        const headers = Object.keys(resolve(r).headers);
        expect(headers, `${op.operationId} ${status}`).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Process-ID', 'X-Request-ID']));
      }
      const statuses = Object.keys(op.responses);
      expect(statuses, op.operationId).toEqual(expect.arrayContaining(['200', '400', '401', '404', '405', '429', '431', '500', '503']));
      expect(statuses.includes('413'), op.operationId).toBe(op.requestBody !== undefined);
    }
    expect(Object.keys(doc.components.responses.TooManyRequests.headers)).toContain('Retry-After');
    expect(Object.keys(doc.components.responses.MethodNotAllowed.headers)).toContain('Allow');
    expect(doc.paths['/online_conferences/{online_conference_id}'].patch.responses['409']).toEqual({ $ref: '#/components/responses/Conflict' });
  });

  it('has tags, security schemes, servers, info and permission-stating operations', () => {
    expect(doc.tags.map((t: Json) => t.name)).toEqual(['Users', 'Customers', 'Online Conferences', 'Calendar Events']);
    for (const t of doc.tags) expect(t.description.length).toBeGreaterThan(10);
    expect(doc.components.securitySchemes).toEqual({
      AccessKeyId: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Access-Key-Id' }),
      AccessKeySecret: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Access-Key-Secret' }),
    });
    expect(doc.security).toEqual([{ AccessKeyId: [], AccessKeySecret: [] }]);
    expect(doc.servers[0]).toEqual({ url: 'http://localhost:8080/api/public/v2.0', description: 'This server' });
    expect(doc.servers[1]).toMatchObject({ url: 'https://{primary_domain}/api/public/v2.0', variables: { primary_domain: { default: expect.any(String) } } });
    expect(doc.info.license.name).toBe('MIT');
    expect(doc.info.contact).toBeDefined();
    expect(doc.info.description).toBeTruthy();
    expect(operations.map((o) => o.operationId).sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
    for (const op of OPERATIONS) {
      const item = doc.paths[op.path][op.method.toLowerCase()];
      expect(item.description).toContain(`Required permissions: ${op.permissions.map((p) => `\`${p}\``).join(', ')}.`);
    }
  });
});
