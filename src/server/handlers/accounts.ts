import type { PageQuery } from '../../contract/index.js';
import { notFound } from '../errors.js';
import type { Handler, HandlerContext, HandlerMap } from './types.js';

/** The tenant's non-deleted user of the path, else 404. */
async function userId({ store, tenant, params }: HandlerContext): Promise<number> {
  const user = await store.users.get(tenant.id, params.user_id);
  if (!user) throw notFound();
  return user.id;
}

const listUserConferenceAccounts: Handler<undefined, PageQuery> = {
  run: async (ctx) => ctx.store.conferenceAccounts.listByOwner(ctx.tenant.id, 'User', await userId(ctx), ctx.query),
};

const listUserConnectedAccounts: Handler<undefined, PageQuery> = {
  run: async (ctx) => ctx.store.connectedAccounts.listByOwner(ctx.tenant.id, 'User', await userId(ctx), ctx.query),
};

/** A user's online conference accounts and connected accounts, paginated by id (spec §4). */
export const accountHandlers: HandlerMap = { listUserConferenceAccounts, listUserConnectedAccounts };
