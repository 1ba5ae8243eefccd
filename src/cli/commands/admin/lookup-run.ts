/**
 * `confctl admin roles|departments|invitations list`: what a user's `role` and `department_id`
 * may be, and the invitations user creates would have sent. The API has no way to list them, so
 * these read the store directly: a local data directory, or with `--database` (or
 * `CONFCTL_DATABASE_URL` unless `--data`) the PostgreSQL database, printing the same rows.
 */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import { printList } from './local.js';
import { withStore } from './store.js';

/** `--tenant`: the tenant whose names are listed (default: the first). */
export type LookupOptions = AdminCommon & { tenant?: string };

export async function rolesList(options: LookupOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, false, async ({ store, tenantOf }) => {
    const tenant = await tenantOf(options);
    const rows = (await store.roles.list(tenant.id)).map((name) => ({ name, tenant: tenant.primary_domain }));
    await printList(ctx, options.globals, rows, ['name', 'tenant']);
  });
}

export async function departmentsList(options: LookupOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, false, async ({ store, tenantOf }) => {
    const tenant = await tenantOf(options);
    const rows = (await store.departments.list(tenant.id)).map((d) => ({ id: d.id, name: d.name, tenant: tenant.primary_domain }));
    await printList(ctx, options.globals, rows, ['id', 'name', 'tenant']);
  });
}

/** The tenant's invitations outbox (decisions §11), oldest first: what would have been mailed. */
export async function invitationsList(options: LookupOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, false, async ({ store, tenantOf }) => {
    const tenant = await tenantOf(options);
    const rows = (await store.invitations.list(tenant.id)).map((i) => ({ id: i.id, created_at: i.created_at, user_id: i.user_id, email: i.email, tenant: tenant.primary_domain }));
    await printList(ctx, options.globals, rows, ['id', 'created_at', 'user_id', 'email', 'tenant']);
  });
}
