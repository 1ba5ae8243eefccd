/**
 * Updates that send only what changes (users, customers): the resource is fetched first, the
 * wanted fields (flags over `--data`, or the object saved from `--edit`) are compared with it,
 * and only differing fields go in the PATCH. Nothing differing: the stored resource is printed,
 * `nothing to change` goes to stderr, and no PATCH is sent. A key removed in the editor is left
 * unchanged (set it to null to clear it). `--dry-run` still GETs the resource, then prints the
 * PATCH it would send (nothing when nothing differs).
 */
import type { OperationId } from '../../contract/operations.js';
import { readData } from '../body.js';
import { printSingle, type WriteOptions } from '../commands/resource.js';
import { apiClient, type CliContext, UsageError } from '../context.js';
import { changedFields, pickKeys } from './changes.js';
import { editJson, editorCommand } from './editor.js';

export interface UpdateOptions extends WriteOptions {
  /** `--edit`: edit the writable fields (with any flags applied) in `$VISUAL`/`$EDITOR`. */
  edit: boolean;
}

export interface UpdateSpec {
  get: OperationId;
  update: OperationId;
  /** The fields the editor shows (the PATCH body's fields). */
  writable: readonly string[];
  /** Names the temp file, e.g. `customer-12`. */
  name: string;
}

export async function runChangedUpdate(spec: UpdateSpec, opts: UpdateOptions, ctx: CliContext): Promise<void> {
  if (opts.edit && opts.data === '-') throw new UsageError('--edit and --data - do not go together', 'the editor needs the terminal; give --data @FILE');
  const given = { ...(opts.data !== undefined ? await readData(opts.data, ctx.streams.stdin) : {}), ...opts.body };
  if (!opts.edit && !Object.keys(given).length) {
    throw new UsageError('nothing to update', 'give at least one field flag, --clear FIELD, --data or --edit');
  }
  if (opts.edit) editorCommand(ctx.env, ctx.streams); // no editor may run here: fail before any request
  const { client, format } = await apiClient(ctx, opts.globals);
  const current = (await client.call(spec.get, { params: opts.params })) as { data: Record<string, unknown> };
  const wanted = opts.edit ? await editJson({ ...pickKeys(current.data, spec.writable), ...given }, spec.name, ctx.env, ctx.streams) : given;
  const changes = changedFields(current.data, wanted);
  if (!Object.keys(changes).length) {
    ctx.streams.stderr.write('nothing to change\n');
    if (!opts.globals.dryRun) await printSingle(ctx, opts.globals, format, current);
    return;
  }
  const answer = (await client.call(spec.update, { params: opts.params, body: changes })) as { data: unknown };
  if (!opts.globals.dryRun) await printSingle(ctx, opts.globals, format, answer);
}
