import { addError, type FieldErrors, type ListQuery, type UserCreateBody, type UserUpdateBody } from '../../contract/index.js';
import { authorize } from '../auth.js';
import { notFound, ValidationError } from '../errors.js';
import { JsonText } from '../json-text.js';
import type { Handler, HandlerContext, HandlerMap } from './types.js';

/** The permission an activating create needs besides `users.create.*` (decisions §11). */
const LOCK = ['users.lock.*'];

/**
 * References and uniqueness of the sent user fields (decisions §7, §10): the department and the
 * role must be the tenant's; the e-mail must be unused among its non-deleted users, ignoring case.
 */
function checkUserFields({ store, tenant, params, body }: HandlerContext<Partial<UserUpdateBody>>, errors: FieldErrors): void {
  if (typeof body.department_id === 'number' && !store.departments.get(tenant.id, body.department_id)) {
    addError(errors, 'department_id', 'The selected :attribute is invalid.');
  }
  if (typeof body.role === 'string' && !store.roles.exists(tenant.id, body.role)) {
    addError(errors, 'role', 'The selected :attribute is invalid.');
  }
  if (typeof body.email === 'string' && store.users.emailTaken(tenant.id, body.email, params.user_id)) {
    addError(errors, 'email', 'The :attribute has already been taken.');
  }
}

const listUsers: Handler<undefined, ListQuery> = {
  run: ({ store, tenant, query }) => {
    const { rows, total } = store.users.listJson(tenant.id, query);
    return { rows: rows.map((text) => new JsonText(text)), total };
  },
};

/**
 * POST /users (decisions §11): status 1 with `activate`, else 0; one invitation in the outbox
 * unless `is_silent`, written in the same transaction as the user. `users.lock.*` depends on the
 * body, so it is checked here, after validation: an invalid body is 400 whatever the key.
 */
const createUser: Handler<UserCreateBody> = {
  validate: checkUserFields,
  run: (ctx) => {
    const { store, tenant, key, body } = ctx;
    if (body.activate) authorize(key, LOCK);
    return store.transaction(() => {
      // Checked again under the write lock: another request may have taken the e-mail since.
      const errors: FieldErrors = {};
      checkUserFields(ctx, errors);
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const { activate, is_silent, ...fields } = body;
      const user = store.users.insert(tenant.id, { ...fields, status: activate ? 1 : 0 });
      if (!is_silent) store.invitations.insert(tenant.id, { user_id: user.id, email: user.email, created_at: user.created_at });
      return user;
    });
  },
};

const getUser: Handler = {
  run: ({ store, tenant, params }) => {
    const user = store.users.getJson(tenant.id, params.user_id);
    if (user === undefined) throw notFound();
    return new JsonText(user);
  },
};

const updateUser: Handler<UserUpdateBody> = {
  validate: checkUserFields,
  run: ({ store, tenant, params, body }) => {
    const user = store.users.get(tenant.id, params.user_id);
    if (!user) throw notFound();
    // An empty body is a no-op that returns the resource unchanged (decisions §7).
    return Object.keys(body).length === 0 ? user : store.users.update(tenant.id, user.id, body);
  },
};

/** Users: list, create (decisions §11), get, update (spec §4). */
export const userHandlers: HandlerMap = { listUsers, createUser, getUser, updateUser };
