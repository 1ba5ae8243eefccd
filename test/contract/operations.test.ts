import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract/openapi.js';
import { ALL_PERMISSIONS, fillPath, hasBody, OPERATION_META, OPERATIONS, operation, operationMeta, pathParams } from '../../src/contract/operations.js';

describe('the operation table', () => {
  it('has the 17 operations of the interface and the five of decisions §11 (createUser, listConferences, the deletes, the join token), each once', () => {
    expect(OPERATIONS).toHaveLength(22);
    expect(new Set(OPERATIONS.map((o) => o.id)).size).toBe(22);
    expect(new Set(OPERATIONS.map((o) => `${o.method} ${o.path}`)).size).toBe(22);
    for (const op of OPERATIONS) expect(op.cli.example.startsWith(`confctl ${op.cli.command}`), op.id).toBe(true);
  });

  it('attaches schemas to the zod-free meta table, a body exactly to POST and PATCH', () => {
    expect(OPERATIONS.map((o) => o.id)).toEqual(OPERATION_META.map((o) => o.id));
    for (const op of OPERATIONS) {
      const { body: _body, resource: _resource, ...meta } = op;
      expect(meta, op.id).toEqual(operationMeta(op.id));
      expect(op.resource, op.id).toBeDefined();
      // The client, the server and the OpenAPI document all follow this rule (`hasBody`).
      expect(Boolean(op.body), op.id).toBe(hasBody(op.method));
      expect(Boolean(op.body), op.id).toBe(op.method === 'POST' || op.method === 'PATCH');
    }
  });

  it('lists the permissions of spec §5 and decisions §11, users.lock.* (demanded by a body) included', () => {
    expect(ALL_PERMISSIONS).toEqual([
      'connected_accounts.read.*',
      'customers.create.*',
      'customers.read.*',
      'customers.update.*',
      'events.read.*',
      'online_conference_accounts.read.*',
      'online_conference_recordings.read.*',
      'online_conferences.create.*',
      'online_conferences.delete.*',
      'online_conferences.read.*',
      'online_conferences.update.*',
      'users.create.*',
      'users.lock.*',
      'users.read.*',
      'users.update.*',
    ]);
    expect(operation('createUser').permissions).toEqual(['users.create.*']);
    expect(operation('createUser').bodyPermissions).toEqual([{ permission: 'users.lock.*', when: '`activate` is true' }]);
    expect(operation('getRecordingUrl').permissions).toEqual(['online_conferences.read.*', 'online_conference_recordings.read.*']);
  });

  it('fills path templates with encoded values', () => {
    const path = operation('getRecordingUrl').path;
    expect(pathParams(path)).toEqual(['online_conference_id', 'online_conference_recording_id']);
    expect(fillPath(path, { online_conference_id: 3, online_conference_recording_id: '5/x' })).toBe('/online_conferences/3/recordings/5%2Fx/url');
    expect(() => fillPath(path, { online_conference_id: 3 })).toThrow(/online_conference_recording_id/);
  });

  it('generates an OpenAPI 3.1 document with every operation', () => {
    const doc = openApiDocument() as any;
    expect(doc.openapi).toBe('3.1.0');
    const ids = Object.values(doc.paths).flatMap((p: any) => Object.values(p).map((o: any) => o.operationId));
    expect(ids.sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
    const list = doc.paths['/users'].get;
    expect(list.parameters).toContainEqual({ $ref: '#/components/parameters/FilterOperator' });
    expect(list.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UserList' });
    expect(doc.components.schemas.UserList.properties.next_page_url).toBeDefined();
    expect(doc.paths['/customers'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CustomerCreateRequest' });
    expect(doc.components.schemas.CustomerCreateRequest.required).toEqual(['first_name', 'last_name', 'email']);
    const createUser = doc.paths['/users'].post;
    expect(createUser.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UserCreateRequest' });
    expect(createUser.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UserResponse' });
    expect(createUser.description).toContain('Also `users.lock.*` when `activate` is true');
    const userCreate = doc.components.schemas.UserCreateRequest;
    expect(userCreate.required).toEqual(['department_id', 'first_name', 'last_name', 'email', 'timezone', 'work_hours', 'role']);
    expect(userCreate.properties.activate).toMatchObject({ type: 'boolean', description: expect.stringMatching(/^Default false\./) });
    expect(userCreate.properties.is_silent).toMatchObject({ type: 'boolean', description: expect.stringMatching(/^Default false\./) });
    expect(userCreate.properties.work_hours.required).toEqual(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']);
  });
});
