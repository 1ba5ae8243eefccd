/**
 * `components/schemas` of the OpenAPI document: the contract's zod schemas, registered under the
 * hosted service's names and converted together, so a nested resource (a user's `WorkHours`, a
 * customer's `Address`) is a `$ref`, not a copy. The conversion is then tidied for tools:
 * `format` by field (`email`, `uri`, `date-time`, `int64` for ids), and no ±2^53 bounds, which
 * zod puts on every integer but which mean nothing to a client.
 */
import { z } from 'zod';
import { ValidationErrorBody, arrayEnvelope, paginatedEnvelope, singleEnvelope, timestamp } from './common.js';
import {
  AttendeeInput,
  AttendeesAddBody,
  ConferenceCreateBody,
  ConferenceUpdateBody,
  CustomerCreateBody,
  CustomerUpdateBody,
  JoinTokenBody,
  UserCreateBody,
  UserUpdateBody,
} from './bodies.js';
import type { Operation } from './operations.js';
import {
  Address,
  CalendarEvent,
  ConnectedAccount,
  Customer,
  EventAttendee,
  JoinToken,
  OnlineConference,
  OnlineConferenceAccount,
  OnlineConferenceAttendee,
  OnlineConferenceRecording,
  TemporaryUrl,
  TimeOfDay,
  User,
  WorkHours,
  WorkInterval,
} from './resources.js';

export type Json = Record<string, unknown>;

/** Resources, by their component name; each gets a single, an array and a list envelope on demand. */
const RESOURCES: Record<string, z.ZodType> = {
  User,
  Customer,
  OnlineConference,
  OnlineConferenceAttendee,
  OnlineConferenceRecording,
  OnlineConferenceAccount,
  ConnectedAccount,
  CalendarEvent,
  TemporaryUrl,
  OnlineConferenceAttendeeJoinToken: JoinToken,
};

/** Parts and bodies worth a name of their own. */
const PARTS: Record<string, z.ZodType> = {
  Address,
  WorkHours,
  WorkInterval,
  TimeOfDay,
  CalendarEventAttendee: EventAttendee,
  ValidationErrorResponse: ValidationErrorBody,
};
const INPUTS: Record<string, z.ZodType> = {
  UserCreateRequest: UserCreateBody,
  UserUpdateRequest: UserUpdateBody,
  CustomerCreateRequest: CustomerCreateBody,
  CustomerUpdateRequest: CustomerUpdateBody,
  OnlineConferenceCreateRequest: ConferenceCreateBody,
  OnlineConferenceUpdateRequest: ConferenceUpdateBody,
  OnlineConferenceAttendeeInput: AttendeeInput,
  OnlineConferenceAttendeesAddRequest: AttendeesAddBody,
  OnlineConferenceAttendeeJoinTokenRequest: JoinTokenBody,
};

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** Names and schemas of the components an operation's responses and body use. */
export interface SchemaSet {
  /** `components/schemas`. */
  schemas: Record<string, Json>;
  /** The success body of `op`, as a `$ref` (inline when its resource has no component name). */
  success(op: Operation): Json;
  /** The request body of `op`, as a `$ref` (inline when it has no component name). */
  body(op: Operation): Json | undefined;
}

const ENVELOPE_SUFFIX = { list: 'List', attendees: 'Array', single: 'Response', temporaryUrl: 'Response' } as const;

function envelope(op: Operation): z.ZodType {
  if (op.response === 'list') return paginatedEnvelope(op.resource);
  if (op.response === 'attendees') return arrayEnvelope(op.resource);
  return singleEnvelope(op.resource);
}

/** Builds the schema components the given operations need. */
export function buildSchemas(operations: readonly Operation[]): SchemaSet {
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of Object.entries({ ...RESOURCES, ...PARTS })) names.set(schema, name);
  const envelopes = new Map<string, z.ZodType>();
  const envelopeName = (op: Operation) => {
    const resource = names.get(op.resource);
    return resource === undefined ? undefined : `${resource}${ENVELOPE_SUFFIX[op.response]}`;
  };
  for (const op of operations) {
    const name = envelopeName(op);
    if (name !== undefined && !envelopes.has(name)) envelopes.set(name, envelope(op));
  }
  const output = convert({ ...Object.fromEntries([...names].map(([s, n]) => [n, s])), ...Object.fromEntries(envelopes) }, 'output');
  const input = convert(INPUTS, 'input');
  const inputNames = new Map(Object.entries(INPUTS).map(([n, s]) => [s, n]));
  return {
    schemas: { ...output, ...input },
    success: (op) => {
      const name = envelopeName(op);
      return name === undefined ? inline(envelope(op), 'output') : ref(name);
    },
    body: (op) => {
      if (!op.body) return undefined;
      const name = inputNames.get(op.body);
      return name === undefined ? inline(op.body, 'input') : ref(name);
    },
  };
}

/** Converts named schemas together: a schema nested in another becomes a `$ref` to its component. */
function convert(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io, unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, Json>;
  };
  return Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, tidy(s)]));
}

function inline(schema: z.ZodType, io: 'input' | 'output'): Json {
  return tidy(z.toJSONSchema(schema, { io, unrepresentable: 'any' }));
}

const FORMAT_BY_NAME: [RegExp, string][] = [
  [/(^|_)email$/, 'email'],
  [/(^|_)url$/, 'uri'],
];

/** Tidies one converted schema in place (see the module comment) and returns it. */
export function tidy(node: Json, property?: string): Json {
  delete node.$schema;
  delete node.$id;
  if (node.type === 'integer') {
    if (node.minimum === -MAX_SAFE) delete node.minimum;
    if (node.maximum === MAX_SAFE) delete node.maximum;
    if (property !== undefined && /(^|_)id$/.test(property)) node.format = 'int64';
  }
  if (node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string'))) {
    if (node.description === timestamp.description) {
      node.format = 'date-time';
    } else if (property !== undefined) {
      const format = FORMAT_BY_NAME.find(([re]) => re.test(property))?.[1];
      if (format && node.format === undefined) node.format = format;
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties') {
      for (const [name, child] of Object.entries(value as Record<string, Json>)) tidy(child, name);
    } else if (Array.isArray(value)) {
      for (const child of value) if (isObject(child)) tidy(child, property);
    } else if (isObject(value)) {
      tidy(value, key === 'items' || key === 'additionalProperties' ? undefined : property);
    }
  }
  return node;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
