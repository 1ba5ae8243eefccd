import { z } from 'zod';
import { ValidationErrorBody, arrayEnvelope, paginatedEnvelope, singleEnvelope } from './common.js';
import { EXPIRY_MAX, EXPIRY_MIN } from './bodies.js';
import { OPERATORS, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './list-query.js';
import { API_PREFIX, OPERATIONS, type Operation, pathParams } from './operations.js';

type Json = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
};

const text = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });

function queryParameters(op: Operation): Json[] {
  const q = (name: string, schema: Json, description: string) => ({ name, in: 'query', required: false, schema, description });
  const page = [
    q('page_size', { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT }, 'Items per page (alias per_page).'),
    q('page_number', { type: 'integer', minimum: 1, default: 1 }, 'Page number, from 1 (alias page).'),
  ];
  if (op.query === 'page') return page;
  if (op.query === 'expiry') {
    return [q('expiry', { type: 'integer', minimum: EXPIRY_MIN, maximum: EXPIRY_MAX }, 'Seconds until the URL expires; empty or absent: recording length + 600.')];
  }
  if (op.query !== 'list' || !op.listSpec) return [];
  return [
    ...page,
    q('with_trashed', { type: 'boolean', default: false }, 'Include soft-deleted rows.'),
    q('order_by', { type: 'string', enum: [...op.listSpec.orders], default: 'id' }, 'Attribute to order by.'),
    q('order_direction', { type: 'string', enum: ['asc', 'desc'], default: 'asc' }, 'Order direction.'),
    q('filter_attribute', { type: 'string', enum: Object.keys(op.listSpec.filters) }, 'Attribute to filter by.'),
    q('filter_operator', { type: 'string', enum: [...OPERATORS], default: 'Equal' }, 'Comparison operator.'),
    q('filter_value', { type: 'string' }, 'Compared value; not used by IsNull/NotNull.'),
  ];
}

function successSchema(op: Operation): z.ZodType {
  if (op.response === 'list') return paginatedEnvelope(op.resource);
  if (op.response === 'attendees') return arrayEnvelope(op.resource);
  return singleEnvelope(op.resource);
}

/** The OpenAPI 3.1 document of all operations, generated from the operation table. */
export function openApiDocument(serverUrl = API_PREFIX): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const responses: Json = {
      '200': { description: 'Success', content: { 'application/json': { schema: jsonSchema(successSchema(op), 'output') } } },
      '401': text('Invalid or missing access key. / Access denied.'),
      '404': text('Resource object does not exist.'),
      '429': text('Too many requests. (see Retry-After)'),
      '500': text('An unexpected error the service.'),
    };
    if (op.query !== 'none' || op.body) {
      responses['400'] = { description: 'Validation failure', content: { 'application/json': { schema: jsonSchema(ValidationErrorBody, 'output') } } };
    }
    // createConference: listed attendees beyond the maximum attendee count (decisions §2).
    if (['createConference', 'updateConference', 'addConferenceAttendees', 'getRecordingUrl'].includes(op.id)) {
      responses['409'] = text('Business rule rejection');
    }
    const item: Json = {
      operationId: op.id,
      summary: op.summary,
      description: `Permissions: ${op.permissions.join(', ')}.\n\nCLI: \`${op.cli.example}\``,
      tags: [op.path.split('/')[1]],
      security: [{ accessKeyId: [], accessKeySecret: [] }],
      parameters: [
        ...pathParams(op.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } })),
        ...queryParameters(op),
      ],
      responses,
      'x-permissions': op.permissions,
    };
    if (op.body) item.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } };
    (paths[op.path] ??= {})[op.method.toLowerCase()] = item;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Conference, User and Customer Management Service', version: '2.0' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        accessKeyId: { type: 'apiKey', in: 'header', name: 'X-Access-Key-Id' },
        accessKeySecret: { type: 'apiKey', in: 'header', name: 'X-Access-Key-Secret' },
      },
    },
    paths,
  };
}
