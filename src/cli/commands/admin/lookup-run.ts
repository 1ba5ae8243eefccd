/**
 * `confctl admin roles|departments|invitations list`: what a user's `role` and `department_id`
 * may be, and the invitations user creates would have sent. The API has no way to list them, so
 * these read the store directly: a local data directory, or with `--database` (or
 * `CONFCTL_DATABASE_URL` unless `--data`) the PostgreSQL database, printing the same rows.
 */
import { type AdminDeps, printList } from './local.js';
import { storeFlags, withStore } from './store.js';

/** `--tenant`: the tenant whose names are listed (default: the first). */
export type LookupOptions = { tenant?: string };

export async function rolesList(options: LookupOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  await withStore(ctx, storeFlags(cmd), false, async ({ store, tenantOf }) => {
    const tenant = await tenantOf(options);
    const rows = (await store.roles.list(tenant.id)).map((name) => ({ name, tenant: tenant.primary_domain }));
    await printList(ctx, cmd, rows, ['name', 'tenant']);
  });
}

export async function departmentsList(options: LookupOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  await withStore(ctx, storeFlags(cmd), false, async ({ store, tenantOf }) => {
    const tenant = await tenantOf(options);
    const rows = (await store.departments.list(tenant.id)).map((d) => ({ id: d.id, name: d.name, tenant: tenant.primary_domain }));
    await printList(ctx, cmd, rows, ['id', 'name', 'tenant']);
  });
}

/** The tenant's invitations outbox (decisions §11), oldest first: what would have been mailed. */
export async function invitationsList(options: LookupOptions, { ctx, cmd }: AdminDeps): Promise<void> {
  await withStore(ctx, storeFlags(cmd), false, async ({ store, tenantOf }) => {
    const tenant = await tenantOf(options);
    const rows = (await store.invitations.list(tenant.id)).map((i) => ({ id: i.id, created_at: i.created_at, user_id: i.user_id, email: i.email, tenant: tenant.primary_domain }));
    await printList(ctx, cmd, rows, ['id', 'created_at', 'user_id', 'email', 'tenant']);
  });
}
