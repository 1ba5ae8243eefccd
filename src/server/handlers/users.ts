import { addError, type FieldErrors, type ListQuery, type UserUpdateBody } from '../../contract/index.js';
import { notFound } from '../errors.js';
import type { Handler, HandlerContext, HandlerMap } from './types.js';

const listUsers: Handler<undefined, ListQuery> = {
  run: ({ store, tenant, query }) => store.users.list(tenant.id, query),
};

const getUser: Handler = {
  run: ({ store, tenant, params }) => {
    const user = store.users.get(tenant.id, params.user_id);
    if (!user) throw notFound();
    return user;
  },
};

const updateUser: Handler<UserUpdateBody> = {
  validate: ({ store, tenant, params, body }: HandlerContext<Partial<UserUpdateBody>>, errors: FieldErrors) => {
    if (typeof body.department_id === 'number' && !store.departments.get(tenant.id, body.department_id)) {
      addError(errors, 'department_id', 'The selected :attribute is invalid.');
    }
    if (body.role !== undefined && !store.roles.exists(tenant.id, body.role)) {
      addError(errors, 'role', 'The selected :attribute is invalid.');
    }
    if (body.email !== undefined && store.users.emailTaken(tenant.id, body.email, params.user_id)) {
      addError(errors, 'email', 'The :attribute has already been taken.');
    }
  },
  run: ({ store, tenant, params, body }) => {
    const user = store.users.get(tenant.id, params.user_id);
    if (!user) throw notFound();
    // An empty body is a no-op that returns the resource unchanged (decisions §7).
    return Object.keys(body).length === 0 ? user : store.users.update(tenant.id, user.id, body);
  },
};

/** Users: list, get, update (spec §4). */
export const userHandlers: HandlerMap = { listUsers, getUser, updateUser };
