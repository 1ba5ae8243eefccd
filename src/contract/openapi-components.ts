/**
 * The reusable parts of the OpenAPI document besides schemas: the list parameters, the response
 * headers every answer carries, one response per error status, the tags and security schemes.
 */
import { EXPIRY_MAX, EXPIRY_MIN } from './bodies.js';
import { OPERATORS, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './list-query.js';
import type { Json } from './openapi-schemas.js';

const header = (description: string, schema: Json = { type: 'integer', minimum: 0 }) => ({ description, schema });

export const HEADERS = {
  RateLimitLimit: header('Requests allowed in the current one-second window (absent when the server runs without limits).'),
  RateLimitRemaining: header('Requests left in the current window.'),
  RateLimitReset: header('Seconds until the window resets.'),
  XProcessId: header('A unique id of this response.', { type: 'string' }),
  XRequestId: header('The request\'s X-Request-ID, echoed (up to 200 printable ASCII characters), else a generated id.', { type: 'string' }),
  RetryAfter: header('Whole seconds to wait before retrying (at least 1).', { type: 'integer', minimum: 1 }),
  Allow: header('The methods the path allows.', { type: 'string' }),
};

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** The headers on every response; `extra` adds status-specific ones. */
export function responseHeaders(...extra: ('RetryAfter' | 'Allow')[]): Json {
  const names = ['RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset', 'XProcessId', 'XRequestId', ...extra] as const;
  const wire: Record<string, string> = {
    RateLimitLimit: 'RateLimit-Limit',
    RateLimitRemaining: 'RateLimit-Remaining',
    RateLimitReset: 'RateLimit-Reset',
    XProcessId: 'X-Process-ID',
    XRequestId: 'X-Request-ID',
    RetryAfter: 'Retry-After',
    Allow: 'Allow',
  };
  return Object.fromEntries(names.map((n) => [wire[n], headerRef(n)]));
}

const plain = (example: string) => ({ 'text/plain': { schema: { type: 'string' }, example } });

/** One response per error status, named for `$ref`. */
export const RESPONSES = {
  BadRequest: {
    description: 'Validation failure (JSON), or a request the HTTP parser rejects (plain text `Bad request.`).',
    headers: responseHeaders(),
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/ValidationErrorResponse' } },
      ...plain('Bad request.'),
    },
  },
  Unauthorized: { description: 'The key is missing or invalid, or lacks a permission.', headers: responseHeaders(), content: plain('Invalid or missing access key.') },
  NotFound: { description: 'Unknown route or tenant, or the resource is absent, deleted or in another tenant.', headers: responseHeaders(), content: plain('Resource object does not exist.') },
  MethodNotAllowed: { description: 'The path does not allow this method.', headers: responseHeaders('Allow'), content: plain('Method not allowed.') },
  Conflict: { description: 'A business rule rejected the request.', headers: responseHeaders(), content: plain('Cannot modify an online conference that has started.') },
  PayloadTooLarge: { description: 'The body is larger than 1 MiB.', headers: responseHeaders(), content: plain('Payload too large.') },
  TooManyRequests: { description: 'Rate limited.', headers: responseHeaders('RetryAfter'), content: plain('Too many requests.') },
  HeaderFieldsTooLarge: { description: 'The header section is too large.', headers: responseHeaders(), content: plain('Request header fields too large.') },
  InternalError: { description: 'An unexpected error; nothing internal is shown.', headers: responseHeaders(), content: plain('An unexpected error the service.') },
  ServiceUnavailable: {
    description: 'The database stayed busy, or the server has too many connections; nothing was written, so any method may be retried.',
    headers: responseHeaders('RetryAfter'),
    content: plain('Service busy, try again.'),
  },
};

const query = (name: string, description: string, schema: Json) => ({ name, in: 'query', required: false, description, schema });

/**
 * The list parameters. Each list has its own attributes for `order_by` and `filter_attribute`:
 * the operation's description lists them; anything else is 400 `The selected … is invalid.`
 */
export const PARAMETERS = {
  PageSize: query('page_size', 'Items per page (alias `per_page`).', { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT }),
  PageNumber: query('page_number', 'Page, from 1 (alias `page`).', { type: 'integer', minimum: 1, default: 1 }),
  WithTrashed: query('with_trashed', 'Include soft-deleted rows.', { type: 'string', enum: ['true', 'false', '1', '0'], default: 'false' }),
  OrderBy: query('order_by', "Attribute to order by, one of the operation's order attributes.", { type: 'string', default: 'id' }),
  OrderDirection: query('order_direction', 'Order direction; ties break by id.', { type: 'string', enum: ['asc', 'desc'], default: 'asc' }),
  FilterAttribute: query('filter_attribute', "Attribute to filter by, one of the operation's filter attributes.", { type: 'string' }),
  FilterOperator: query('filter_operator', 'Comparison operator.', { type: 'string', enum: [...OPERATORS], default: 'Equal' }),
  FilterValue: query('filter_value', 'Compared value; required unless the operator is IsNull or NotNull.', { type: 'string' }),
  Expiry: query('expiry', 'Seconds until the URL expires; empty or absent: the recording\'s length plus 600.', { type: 'integer', minimum: EXPIRY_MIN, maximum: EXPIRY_MAX }),
};

export const paramRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** Tags by the first path segment. */
export const TAGS: Record<string, { name: string; description: string }> = {
  users: { name: 'Users', description: 'People of the tenant: profile, role, department, work hours, and their conference and connected accounts.' },
  customers: { name: 'Customers', description: 'External contacts of the tenant, with an address and an E.164 contact number.' },
  online_conferences: { name: 'Online Conferences', description: 'Video conferences: their attendees and recordings, and temporary links to recording files.' },
  calendars: { name: 'Calendar Events', description: 'Events of a calendar, with the conference they back.' },
};

export const SECURITY_SCHEMES = {
  AccessKeyId: { type: 'apiKey', in: 'header', name: 'X-Access-Key-Id', description: 'The access key id (`ak_` and 24 characters).' },
  AccessKeySecret: { type: 'apiKey', in: 'header', name: 'X-Access-Key-Secret', description: 'The access key secret, shown once when the key is created.' },
};
