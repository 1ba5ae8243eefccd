/**
 * Updates that send only what changes (users, customers): the resource is fetched first, the
 * wanted fields (flags over `--data`, or the object saved from `--edit`) are compared with it,
 * and only differing fields go in the PATCH. Nothing differing: the stored resource is printed,
 * `nothing to change` goes to stderr, and no PATCH is sent. A key removed in the editor is left
 * unchanged (set it to null to clear it). `--dry-run` still GETs the resource, then prints the
 * PATCH it would send (nothing when nothing differs).
 */
import type { Command } from 'commander';
import { type OperationId, operationMeta } from '../../contract/operations-meta.js';
import { addBodyOptions, bodyFromFlags, type FieldFlag, readData } from '../body.js';
import { idArg, printSingle, withExample, type WriteOptions } from '../commands/resource.js';
import { apiClient, type CliContext, globalOptions, UsageError } from '../context.js';
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

/**
 * Registers `update <ID_PARAM>` under `parent` (users, customers): one flag per writable field,
 * `--data`, `--clear`, `--edit`; the parsed options go to `run`.
 */
export function addUpdateCommand(parent: Command, def: { update: OperationId; idParam: string; fields: readonly FieldFlag[] }, run: (opts: UpdateOptions) => Promise<void>): void {
  const update = parent
    .command('update')
    .description(`${operationMeta(def.update).summary}; fetches it first and sends only the fields that differ`)
    .argument(`<${def.idParam}>`)
    .option('--edit', 'edit the writable fields as JSON in $VISUAL/$EDITOR (flags applied first)');
  withExample(addBodyOptions(update, def.fields, { clear: true }), def.update).action((id: string, flags, cmd: Command) =>
    run({
      params: { [def.idParam]: idArg(id, def.idParam) },
      body: bodyFromFlags(flags, def.fields),
      data: flags.data,
      edit: Boolean(flags.edit),
      globals: globalOptions(cmd),
    }),
  );
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
