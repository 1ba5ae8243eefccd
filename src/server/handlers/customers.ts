import {
  addError,
  type CustomerCreateBody,
  type CustomerUpdateBody,
  type FieldErrors,
  type ListQuery,
} from '../../contract/index.js';
import { notFound } from '../errors.js';
import type { Handler, HandlerContext, HandlerMap } from './types.js';

/** Email uniqueness among the tenant's non-deleted customers, ignoring case (decisions §7, §10). */
async function checkEmail({ store, tenant, params, body }: HandlerContext<Partial<CustomerUpdateBody>>, errors: FieldErrors): Promise<void> {
  if (typeof body.email === 'string' && (await store.customers.emailTaken(tenant.id, body.email, params.customer_id))) {
    addError(errors, 'email', 'The :attribute has already been taken.');
  }
}

const listCustomers: Handler<undefined, ListQuery> = {
  run: ({ store, tenant, query }) => store.customers.list(tenant.id, query),
};

/**
 * Checks the e-mail first only when another field failed too, so that the 400 lists every error.
 * Alone, a taken e-mail is refused by the store's unique index of live e-mails with the same 400
 * (`UniqueViolation`, server/reply.ts), and nothing is written: a query less per created customer.
 */
const createCustomer: Handler<CustomerCreateBody> = {
  validate: (ctx, errors) => (Object.keys(errors).length ? checkEmail(ctx, errors) : undefined),
  run: ({ store, tenant, body }) => store.customers.insert(tenant.id, body),
};

const getCustomer: Handler = {
  run: async ({ store, tenant, params }) => {
    const customer = await store.customers.get(tenant.id, params.customer_id);
    if (!customer) throw notFound();
    return customer;
  },
};

const updateCustomer: Handler<CustomerUpdateBody> = {
  validate: checkEmail,
  run: async ({ store, tenant, params, body }) => {
    const customer = await store.customers.get(tenant.id, params.customer_id);
    if (!customer) throw notFound();
    // An empty body is a no-op; a sent `address` replaces the whole address (decisions §7, §10).
    return Object.keys(body).length === 0 ? customer : store.customers.update(tenant.id, customer.id, body);
  },
};

/** Customers: list, create, get, update (spec §4). */
export const customerHandlers: HandlerMap = { listCustomers, createCustomer, getCustomer, updateCustomer };
