import { addError, type FieldErrors, type ListQuery, type UserCreateBody, type UserUpdateBody } from '../../contract/index.js';
import { authorize } from '../auth.js';
import { notFound } from '../errors.js';
import { JsonText, jsonTexts } from '../json-text.js';
import type { Handler, HandlerContext, HandlerMap } from './types.js';

/** The permission an activating create needs besides `users.create.*` (decisions §11). */
const LOCK = ['users.lock.*'];

/**
 * References and uniqueness of the sent user fields (decisions §7, §10): the department and the
 * role must be the tenant's; the e-mail must be unused among its non-deleted users, ignoring case.
 */
async function checkUserFields({ store, tenant, params, body }: HandlerContext<Partial<UserUpdateBody>>, errors: FieldErrors): Promise<void> {
  if (typeof body.department_id === 'number' && !(await store.departments.get(tenant.id, body.department_id))) {
    addError(errors, 'department_id', 'The selected :attribute is invalid.');
  }
  if (typeof body.role === 'string' && !(await store.roles.exists(tenant.id, body.role))) {
    addError(errors, 'role', 'The selected :attribute is invalid.');
  }
  if (typeof body.email === 'string' && (await store.users.emailTaken(tenant.id, body.email, params.user_id))) {
    addError(errors, 'email', 'The :attribute has already been taken.');
  }
}

const listUsers: Handler<undefined, ListQuery> = {
  run: async ({ store, tenant, query }) => {
    const { rows, total } = await store.users.listJson(tenant.id, query);
    return { rows: jsonTexts(rows), total };
  },
};

/**
 * POST /users (decisions §11): status 1 with `activate`, else 0; one invitation in the outbox
 * unless `is_silent`, written in the same unit of work as the user, which checks the e-mail
 * again (another request may have taken it since validation). `users.lock.*` depends on the
 * body, so it is checked here, after validation: an invalid body is 400 whatever the key.
 */
const createUser: Handler<UserCreateBody> = {
  validate: checkUserFields,
  run: ({ store, tenant, key, body }) => {
    if (body.activate) authorize(key, LOCK);
    const { activate, is_silent, ...fields } = body;
    return store.units.createUser(tenant.id, { ...fields, status: activate ? 1 : 0 }, !is_silent);
  },
};

const getUser: Handler = {
  run: async ({ store, tenant, params }) => {
    const user = await store.users.getJson(tenant.id, params.user_id);
    if (user === undefined) throw notFound();
    return new JsonText(user);
  },
};

const updateUser: Handler<UserUpdateBody> = {
  validate: checkUserFields,
  run: async ({ store, tenant, params, body }) => {
    const user = await store.users.get(tenant.id, params.user_id);
    if (!user) throw notFound();
    // An empty body is a no-op that returns the resource unchanged (decisions §7).
    return Object.keys(body).length === 0 ? user : store.users.update(tenant.id, user.id, body);
  },
};

/** Users: list, create (decisions §11), get, update (spec §4). */
export const userHandlers: HandlerMap = { listUsers, createUser, getUser, updateUser };
