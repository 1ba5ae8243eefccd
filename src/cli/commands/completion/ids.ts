/**
 * Ids for shell completion (`confctl users get <TAB>`): the hidden `confctl completion SHELL
 * --ids NOUN` prints the ids of one page of that list. It must never get in the way of typing:
 * the service gets IDS_BUDGET_MS (an explicit `--timeout` overrides it), one try; silent on any
 * error (nothing printed, exit 0); never a prompt, never a keychain lookup (a keychain profile
 * completes no ids).
 */
import { OPERATION_META } from '../../../contract/operations-meta.js';
import type { ListOperationId } from '../../../client/types.js';
import { type CliContext, requireAccess } from '../../context.js';
import { cell as text } from '../../output/values.js';

/** The request's budget (from sending to the last byte): the user waits for it at the prompt. */
export const IDS_BUDGET_MS = 300;

/** Nouns whose `get`/`update`/`delete` take an id that one list operation without path parameters can list. */
export const ID_LISTS: Readonly<Record<string, ListOperationId>> = Object.fromEntries(
  OPERATION_META.filter((op) => op.response === 'list' && !op.path.includes('{') && op.cli.command.endsWith(' list')).map((op) => [
    op.cli.command.split(' ')[0],
    op.id as ListOperationId,
  ]),
);

/** The commands whose first argument completes with ids of `noun`. */
export function idNounOf(path: string): string | undefined {
  const [noun, verb, ...rest] = path.split(' ');
  return !rest.length && (verb === 'get' || verb === 'update' || verb === 'delete') && ID_LISTS[noun] ? noun : undefined;
}

/** A row's label for fish's descriptions: its email, else its name or title. */
const label = (row: Record<string, unknown>) => text(row.email ?? row.name ?? row.title ?? '').replace(/\s+/g, ' ');

/** Ids of one page of `noun`'s list, one per line (fish: `id<TAB>label`); nothing on any failure. */
export async function printIds(ctx: CliContext, noun: string, shell: string, globals: { profile?: string; baseUrl?: string; timeoutMs?: number }): Promise<void> {
  try {
    const id = ID_LISTS[noun];
    if (!id) return;
    const store = await ctx.config();
    const name = globals.profile ?? (ctx.env.CONFCTL_PROFILE || undefined) ?? store.active();
    if (!ctx.env.CONFCTL_KEY_SECRET && name && store.get(name)?.secret_store === 'keyring') return;
    const { resolveSettings } = await import('../../../config/settings.js');
    const access = requireAccess(resolveSettings(store, ctx.env, { profile: globals.profile, baseUrl: globals.baseUrl }));
    const timeoutMs = globals.timeoutMs ?? IDS_BUDGET_MS;
    const client = await ctx.createClient({ baseUrl: access.baseUrl, keyId: access.keyId, secret: access.secret, timeoutMs, maxTries: 1, pacer: null });
    const page = await client.call(id, { query: { page_size: 100 } });
    const rows = page.data as unknown as Record<string, unknown>[];
    ctx.streams.stdout.write(rows.map((r) => (shell === 'fish' ? `${text(r.id)}\t${label(r)}\n` : `${text(r.id)}\n`)).join(''));
  } catch {
    // Completion stays silent: a missing profile, a slow or failing service offer nothing.
  }
}
