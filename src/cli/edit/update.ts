/**
 * Updates that send the complete writable body (users, customers, conferences): the hosted
 * service takes only whole bodies on these PATCHes, so the resource is fetched first and the
 * wanted fields (flags over `--data`, or the object saved from `--edit`) are merged into its
 * writable fields. Nothing differing: the stored resource is printed, `nothing to change` goes to
 * stderr, and no PATCH is sent. A key removed in the editor keeps its fetched value (set it to
 * null to clear it). When every writable field is given (and no `--edit`), nothing is fetched.
 * `--dry-run` still GETs the resource (a read), then prints the PATCH it would send.
 *
 * Between the GET and the PATCH nothing is locked (the interface has no conditional PATCH): a
 * field someone else changes in that window is written back with the fetched value.
 */
import type { Command } from 'commander';
import type { ApiClient } from '../../client/client.js';
import { ApiError } from '../../client/errors.js';
import { incompleteKeys, needsCompleteBody } from '../../contract/complete-bodies.js';
import { type OperationId, operationMeta } from '../../contract/operations-meta.js';
import { addBodyOptions, bodyFromFlags, type FieldFlag, flagOf, readData } from '../body.js';
import { type Flags, idArg, printSingle, withExample, type WriteOptions } from '../commands/resource.js';
import { apiClient, type CliContext, CliError, EXIT, globalOptions, UsageError } from '../context.js';
import { changedFields } from './changes.js';
import { mergeUpdate, unknownKeys } from './complete.js';
import { editJson, editorCommand } from './editor.js';

export interface UpdateOptions extends WriteOptions {
  /** `--edit`: edit the writable fields (with any flags applied) in `$VISUAL`/`$EDITOR`. */
  edit: boolean;
}

export interface UpdateSpec {
  get: OperationId;
  update: OperationId;
  /** `user`, `customer`, `conference`: for messages. */
  noun: string;
  /** The writable fields: what the editor shows and every PATCH body carries. */
  writable: readonly string[];
  /** The flag that gives a field, for hints (default `--field-name`). */
  flag?: (key: string) => string;
  /** Adjusts the merged body before it is sent (customers: the address is always an object). */
  finish?: (body: Record<string, unknown>) => Record<string, unknown>;
  /** What gives a change, for the hint when none is given. */
  givers?: string;
}

/** The help sentence of an update command. */
export const UPDATE_HELP = 'fetches it, applies the changes and sends every writable field';

/**
 * Registers `update <ID_PARAM>` under `parent` (users, customers): one flag per writable field,
 * `--data`, `--clear`, `--edit`; the parsed options go to `run`.
 */
export function addUpdateCommand(parent: Command, def: { update: OperationId; idParam: string; fields: readonly FieldFlag[] }, run: (opts: UpdateOptions) => Promise<void>): void {
  const update = addEditOption(parent.command('update').description(`${operationMeta(def.update).summary}; ${UPDATE_HELP}`).argument(`<${def.idParam}>`));
  withExample(addBodyOptions(update, def.fields, { clear: true }), def.update).action((id: string, flags: Flags<{ data?: string; edit?: boolean }>, cmd: Command) =>
    run({
      params: { [def.idParam]: idArg(id, def.idParam) },
      body: bodyFromFlags(flags, def.fields),
      data: flags.data,
      edit: Boolean(flags.edit),
      globals: globalOptions(cmd),
    }),
  );
}

/** Adds `--edit`. */
export const addEditOption = (cmd: Command): Command => cmd.option('--edit', 'edit the writable fields as JSON in $VISUAL/$EDITOR (flags applied first)');

/** `a`, `a and b`, `a, b and c`. */
const list = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** Why `given` cannot be sent: keys that are not writable fields. */
function unknownProblem(spec: UpdateSpec, given: Record<string, unknown>, what: string): string | undefined {
  const unknown = unknownKeys(given, spec.writable);
  if (!unknown.length) return undefined;
  const which = unknown.length > 1 ? 'are not writable fields' : 'is not a writable field';
  return `${what}: ${list(unknown.map((k) => `'${k}'`))} ${which} of a ${spec.noun} (writable: ${spec.writable.join(', ')})`;
}

/** The fields of the complete `body` that the service requires but are null. */
const requiredNulls = (spec: UpdateSpec, body: Record<string, unknown>): string[] => (needsCompleteBody(spec.update) ? incompleteKeys(spec.update, body) : []);

/** Why the complete `body` cannot be sent: fields the service requires that are null. */
function nullProblem(spec: UpdateSpec, body: Record<string, unknown>, id: string): string | undefined {
  const missing = requiredNulls(spec, body);
  if (!missing.length) return undefined;
  return `cannot update ${spec.noun} ${id} without ${list(missing)}: an update sends every field, and the service requires ${missing.length > 1 ? 'them' : 'it'}`;
}

type Envelope = { data: Record<string, unknown> };

/** GETs the resource; a 401 says that reading it is needed (and how to update without reading). */
async function fetchCurrent(client: ApiClient, spec: UpdateSpec, opts: UpdateOptions): Promise<Envelope> {
  try {
    return (await client.call(spec.get, { params: opts.params })) as Envelope;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    const flags = spec.writable.map(spec.flag ?? flagOf);
    throw new CliError(
      `an update reads the ${spec.noun} first, to send every writable field, and reading it failed (${err.status}): ${err.message}`,
      EXIT.auth,
      `the access key needs ${list(operationMeta(spec.get).permissions)} as well; or give every field (${list(flags)}) to update without reading`,
    );
  }
}

export async function runUpdate(spec: UpdateSpec, opts: UpdateOptions, ctx: CliContext): Promise<void> {
  if (opts.edit && opts.data === '-') throw new UsageError('--edit and --data - do not go together', 'the editor needs the terminal; give --data @FILE');
  const given = { ...(opts.data !== undefined ? await readData(opts.data, ctx.streams.stdin) : {}), ...opts.body };
  if (!opts.edit && !Object.keys(given).length) {
    throw new UsageError('nothing to update', `give ${spec.givers ?? 'at least one field flag, --clear FIELD, --data or --edit'}`);
  }
  const unknown = unknownProblem(spec, given, '--data');
  if (unknown) throw new UsageError(unknown);
  if (opts.edit) editorCommand(ctx.env, ctx.streams); // no editor may run here: fail before any request
  const { client, format } = await apiClient(ctx, opts.globals, spec.update);
  const id = Object.values(opts.params)[0];
  const complete = !opts.edit && spec.writable.every((k) => k in given);
  const fetched = complete ? undefined : await fetchCurrent(client, spec, opts);
  let body = given;
  if (fetched) {
    const current = fetched.data;
    const changes = (wanted: Record<string, unknown>) => changedFields(current, mergeUpdate(current, wanted, spec.writable));
    // An edit that changes nothing is fine whatever the fetched values; one that changes something must be sendable.
    const check = (edited: Record<string, unknown>) =>
      unknownProblem(spec, edited, 'the edited JSON') ?? (Object.keys(changes(edited)).length ? nullProblem(spec, mergeUpdate(current, edited, spec.writable), id) : undefined);
    const wanted = opts.edit ? await editJson(mergeUpdate(current, given, spec.writable), `${spec.noun}-${id}`, ctx.env, ctx.streams, check) : given;
    if (!Object.keys(changes(wanted)).length) {
      ctx.streams.stderr.write('nothing to change\n');
      if (!opts.globals.dryRun) await printSingle(ctx, opts.globals, format, fetched, spec.update);
      return;
    }
    body = mergeUpdate(current, wanted, spec.writable);
  }
  const problem = nullProblem(spec, body, id);
  if (problem) throw new UsageError(`${problem}; nothing sent`, `give ${list(requiredNulls(spec, body).map(spec.flag ?? flagOf))}`);
  const answer = (await client.call(spec.update, { params: opts.params, body: spec.finish ? spec.finish(body) : body })) as { data: unknown };
  if (!opts.globals.dryRun) await printSingle(ctx, opts.globals, format, answer, spec.update);
}
