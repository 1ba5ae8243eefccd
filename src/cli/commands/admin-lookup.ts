/**
 * `confctl admin roles|departments list`: what a user's `role` and `department_id` may be. The
 * API has no way to list them, so these read a local data directory.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { printList, tenantOf, withLocal } from './admin-local.js';

export async function rolesList(ctx: CliContext, cmd: Command): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const tenant = tenantOf(local, opts);
    const rows = local.store.roles.list(tenant.id).map((name) => ({ name, tenant: tenant.primary_domain }));
    await printList(ctx, cmd, rows, ['name', 'tenant']);
  });
}

export async function departmentsList(ctx: CliContext, cmd: Command): Promise<void> {
  await withLocal(ctx, cmd, async (local, opts) => {
    const tenant = tenantOf(local, opts);
    const rows = local.store.departments.list(tenant.id).map((d) => ({ id: d.id, name: d.name, tenant: tenant.primary_domain }));
    await printList(ctx, cmd, rows, ['id', 'name', 'tenant']);
  });
}
