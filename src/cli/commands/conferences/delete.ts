/**
 * `conferences delete` and `conferences attendees remove`: a soft delete each, guarded. On a
 * terminal the command names what it will delete and asks (default no; a no is exit 2, like a
 * refused overwrite); in a script (stdin or stdout not a terminal) it needs `--yes` and
 * otherwise stops with exit 2 before any request.
 * `--dry-run` prints the DELETE as a curl line and sends nothing, so it needs neither.
 */
import type { ApiClient } from '../../../client/client.js';
import { ApiError } from '../../../client/errors.js';
import type { OperationId } from '../../../contract/operations-meta.js';
import { apiClient, type CliContext, UsageError } from '../../context.js';
import { choicePrompter } from './prompt.js';
import { type ItemOptions, printSingle } from '../resource.js';

export interface DeleteOptions extends ItemOptions {
  /** `--yes`: no question, for scripts. */
  yes: boolean;
}

/**
 * What a delete operation removes and how to name it for the question. Stored text (titles,
 * names) is quoted with `JSON.stringify`, so control characters cannot reach the terminal raw.
 */
interface DeleteSpec {
  id: OperationId;
  /** A phrase naming the resource, e.g. `online conference 3 "Weekly sync" (weekly-sync)`. */
  describe(client: ApiClient, params: Readonly<Record<string, string>>): Promise<string>;
}

/**
 * A description that needs a read permission the key may lack: without it (401) the ids alone
 * name the resource. Any other failure (404: nothing to delete) stops the command as it is.
 */
async function orIds<T>(read: () => Promise<T | undefined>, named: (value: T) => string, fallback: string): Promise<string> {
  try {
    const value = await read();
    return value === undefined ? fallback : named(value);
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return fallback;
    throw err;
  }
}

export const CONFERENCE_DELETE: DeleteSpec = {
  id: 'deleteConference',
  describe: (client, { online_conference_id: id }) =>
    orIds(
      async () => (await client.getConference(id)).data,
      (c) => `online conference ${c.id} ${JSON.stringify(c.title)} (${c.public_id})`,
      `online conference ${id}`,
    ),
};

export const ATTENDEE_REMOVE: DeleteSpec = {
  id: 'removeConferenceAttendee',
  describe: (client, { online_conference_id: conf, online_conference_attendee_id: id }) =>
    orIds(
      async () => {
        for await (const page of client.paginate('listConferenceAttendees', { params: { online_conference_id: conf }, query: { page_size: 100 } })) {
          const found = page.data.find((a) => String(a.id) === id);
          if (found) return found;
        }
        return undefined;
      },
      (a) => `attendee ${a.id} ${JSON.stringify(a.name)} <${a.email}> of online conference ${conf}`,
      `attendee ${id} of online conference ${conf}`,
    ),
};

/** Asks for, or checks, the confirmation; then deletes and prints the deleted resource. */
export async function runDelete(spec: DeleteSpec, opts: DeleteOptions, ctx: CliContext): Promise<void> {
  const ask = !opts.yes && !opts.globals.dryRun;
  // Checked before the profile is read, so a script learns about --yes first.
  if (ask && !ctx.streams.canPrompt) throw new UsageError('refusing to delete without confirmation', 'add --yes to delete from a script (or --dry-run to see the request)');
  const { client, format } = await apiClient(ctx, opts.globals, spec.id);
  if (ask) {
    const what = await spec.describe(client, opts.params);
    const sure = await choicePrompter(ctx).confirm({ message: `Delete ${what}?`, default: false });
    if (!sure) throw new UsageError('not confirmed: nothing was deleted');
  }
  const answer = (await client.call(spec.id, { params: opts.params })) as { data: unknown };
  // Under --dry-run the client printed the request as a curl line and sent nothing.
  if (!opts.globals.dryRun) await printSingle(ctx, opts.globals, format, answer, spec.id);
}
