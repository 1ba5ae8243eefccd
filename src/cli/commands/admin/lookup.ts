/**
 * `confctl admin roles|departments|invitations list`: registration only; the actions load when
 * one runs (lookup-run.ts).
 */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { DATA, DATABASE, TENANT, commonOptions, type OwnFlags } from './flags.js';
import type { LookupOptions } from './lookup-run.js';

export function register(admin: Command, ctx: CliContext): void {
  const roles = admin.command('roles').description("A tenant's roles (the names a user's role may take)").addHelpText('after', examples('confctl admin roles list'));
  roles
    .command('list')
    .description("List a tenant's roles")
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin roles list --tenant localhost -o json'))
    .action(async (flags: OwnFlags<LookupOptions>, cmd: Command) => (await import('./lookup-run.js')).rolesList({ ...flags, ...commonOptions(cmd) }, ctx));

  const departments = admin.command('departments').description("A tenant's departments (the ids a user's department_id may take)").addHelpText('after', examples('confctl admin departments list'));
  departments
    .command('list')
    .description("List a tenant's departments")
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin departments list -o json'))
    .action(async (flags: OwnFlags<LookupOptions>, cmd: Command) => (await import('./lookup-run.js')).departmentsList({ ...flags, ...commonOptions(cmd) }, ctx));

  const invitations = admin
    .command('invitations')
    .description('The invitations user creates would have sent (recorded locally; nothing is mailed)')
    .addHelpText('after', examples('confctl admin invitations list'));
  invitations
    .command('list')
    .description("List a tenant's recorded invitations, oldest first: time, user id, e-mail")
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin invitations list --tenant localhost -o json'))
    .action(async (flags: OwnFlags<LookupOptions>, cmd: Command) => (await import('./lookup-run.js')).invitationsList({ ...flags, ...commonOptions(cmd) }, ctx));
}
