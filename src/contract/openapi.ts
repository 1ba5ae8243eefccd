/**
 * The OpenAPI 3.1 document, generated from the operation table: schemas as `$ref` components
 * (openapi-schemas.ts), shared parameters, headers and error responses (openapi-components.ts).
 * `servers` lists the origin that fetched the document first, then the hosted template.
 */
import { API_PREFIX, OPERATIONS, type Operation, pathParams } from './operations.js';
import { HEADERS, PARAMETERS, RESPONSES, SECURITY_SCHEMES, TAGS, paramRef, responseHeaders } from './openapi-components.js';
import { buildSchemas, type Json, type SchemaSet } from './openapi-schemas.js';

/** Operations a business rule can refuse with 409. */
const CONFLICTS = new Set([
  'createConference',
  'updateConference',
  'deleteConference',
  'addConferenceAttendees',
  'removeConferenceAttendee',
  'getRecordingUrl',
  'createAttendeeJoinToken',
]);

const HOSTED_SERVER = {
  url: `https://{primary_domain}${API_PREFIX}`,
  description: 'A hosted tenant',
  variables: { primary_domain: { default: 'your-tenant.example', description: "The tenant's primary domain." } },
};

const respRef = (name: keyof typeof RESPONSES) => ({ $ref: `#/components/responses/${name}` });

function parameters(op: Operation): Json[] {
  const path = pathParams(op.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    description: `Id of the ${name.replace(/_id$/, '').replaceAll('_', ' ')}.`,
    schema: { type: 'integer', format: 'int64', minimum: 1 },
  }));
  const page = [paramRef('PageSize'), paramRef('PageNumber')];
  const query =
    op.query === 'page' ? page
    : op.query === 'expiry' ? [paramRef('Expiry')]
    : op.query === 'list' ? [...page, ...['WithTrashed', 'OrderBy', 'OrderDirection', 'FilterAttribute', 'FilterOperator', 'FilterValue'].map(paramRef)]
    : [];
  return [...path, ...query];
}

function description(op: Operation): string {
  const lines = [`Required permissions: ${op.permissions.map((p) => `\`${p}\``).join(', ')}.`];
  for (const b of op.bodyPermissions ?? []) lines.push(`Also \`${b.permission}\` when ${b.when} (checked after validation: 401 \`Access denied.\`).`);
  if (op.listSpec) {
    lines.push(`Order attributes (\`order_by\`): ${op.listSpec.orders.join(', ')}.`);
    lines.push(`Filter attributes (\`filter_attribute\`): ${Object.keys(op.listSpec.filters).join(', ')}.`);
    const booleans = Object.keys(op.listSpec.filters).filter((a) => op.listSpec!.filters[a] === 'boolean');
    if (booleans.length) lines.push(`Boolean attributes (${booleans.join(', ')}) take \`true\`, \`false\`, \`1\` or \`0\` with every operator.`);
  }
  lines.push(`CLI: \`${op.cli.example}\``);
  return lines.join('\n\n');
}

function operationItem(op: Operation, schemas: SchemaSet): Json {
  const responses: Json = {
    '200': { description: 'Success', headers: responseHeaders(), content: { 'application/json': { schema: schemas.success(op) } } },
    '400': respRef('BadRequest'),
    '401': respRef('Unauthorized'),
    '404': respRef('NotFound'),
    '405': respRef('MethodNotAllowed'),
  };
  if (CONFLICTS.has(op.id)) responses['409'] = respRef('Conflict');
  if (op.body) responses['413'] = respRef('PayloadTooLarge');
  Object.assign(responses, {
    '429': respRef('TooManyRequests'),
    '431': respRef('HeaderFieldsTooLarge'),
    '500': respRef('InternalError'),
    '503': respRef('ServiceUnavailable'),
  });
  const item: Json = {
    operationId: op.id,
    summary: op.summary,
    description: description(op),
    tags: [tagOf(op).name],
    parameters: parameters(op),
    responses,
    'x-permissions': op.permissions,
  };
  const body = schemas.body(op);
  if (body) item.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return item;
}

function tagOf(op: Operation): { name: string; description: string } {
  const segment = op.path.split('/')[1];
  return TAGS[segment] ?? { name: segment, description: `Operations under /${segment}.` };
}

/**
 * The document. `origin` (scheme and host of the request that fetched it) becomes the first
 * server; without it only the hosted template is listed.
 */
export function openApiDocument(origin?: string): Json {
  const schemas = buildSchemas(OPERATIONS);
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method.toLowerCase()] = operationItem(op, schemas);
  const used = new Set(OPERATIONS.map((op) => tagOf(op).name));
  const tags = [...new Map(OPERATIONS.map((op) => [tagOf(op).name, tagOf(op)])).values()].filter((t) => used.has(t.name));
  const parameterNames = new Set(OPERATIONS.flatMap((op) => parameters(op)).flatMap((p) => ('$ref' in p ? [String(p.$ref).split('/').pop()!] : [])));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Conference, User and Customer Management Service',
      version: '2.0',
      summary: 'Tenant-scoped users, customers, online conferences and calendar events.',
      description:
        'The public API v2.0 as served by `confctl serve` and the hosted service. Every request carries an access key pair ' +
        '(`X-Access-Key-Id`, `X-Access-Key-Secret`); the tenant is the Host name. Success is 200 with `{message, data}`, ' +
        'lists add pagination fields; validation failures are 400 with `{message, errors}`; other errors are plain text.',
      contact: { name: 'confctl maintainers' },
      license: { name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' },
    },
    servers: [...(origin ? [{ url: `${origin}${API_PREFIX}`, description: 'This server' }] : []), HOSTED_SERVER],
    security: [{ AccessKeyId: [], AccessKeySecret: [] }],
    tags,
    paths,
    components: {
      schemas: schemas.schemas,
      parameters: Object.fromEntries(Object.entries(PARAMETERS).filter(([name]) => parameterNames.has(name))),
      headers: HEADERS,
      responses: RESPONSES,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
