/** `confctl users list|create|get|update|accounts|connected-accounts`. */
import type { Command } from 'commander';
import { USER_LIST } from '../../../contract/list-specs.js';
import { operationMeta } from '../../../contract/operations-meta.js';
import { responseOnlyFields } from '../../../contract/resource-fields.js';
import { addBodyOptions, bodyFromFlags, type FieldFlag } from '../../body.js';
import { addFromFileOptions, type FromFileOptions, fromFileOptions, givenFlags, runFromFile } from '../../bulk/command.js';
import { type CliContext, globalOptions } from '../../context.js';
import { type CreateSwitches, createSwitches, runUserCreate, userCreateBody, userFailureHints } from './create.js';
import { addUpdateCommand, runUpdate, type UpdateOptions } from '../../edit/update.js';
import {
  addGetCommand,
  addListOptions,
  type Flags,
  idArg,
  type ItemOptions,
  type ListOptions,
  listOptions,
  runGet,
  runList,
  withExample,
  type WriteOptions,
} from '../resource.js';
import { examples } from '../../help.js';

export const USER_FIELDS: readonly FieldFlag[] = [
  { key: 'first_name', kind: 'text', description: 'first name' },
  { key: 'last_name', kind: 'text', description: 'last name' },
  { key: 'email', kind: 'text', description: 'e-mail address' },
  { key: 'department_id', kind: 'integer', description: 'department id (confctl admin departments list)' },
  { key: 'timezone', kind: 'text', description: 'IANA time zone, e.g. Europe/Paris' },
  { key: 'role', kind: 'text', description: 'role name, e.g. Manager' },
  { key: 'work_hours', kind: 'hours', description: "work hours: 'mon-fri 09:00-17:00' (days left out have none; '; ' between clauses, ',' between spans), 'none', or the API's JSON" },
];

/** Table columns when no --fields is given. */
export const USER_COLUMNS = ['id', 'name', 'email', 'role', 'department_name', 'timezone', 'status'];

/** Table columns of a user's online conference accounts and connected accounts. */
export const ACCOUNT_COLUMNS = ['id', 'name', 'owner_type', 'owner_id', 'connected_account_id', 'created_at'];
export const CONNECTED_ACCOUNT_COLUMNS = ['id', 'provider_id', 'provider_uid', 'provider_email', 'owner_type', 'owner_id', 'created_at'];

export interface UsersRunners {
  list(opts: ListOptions): Promise<void>;
  create(opts: WriteOptions & { switches: CreateSwitches }): Promise<void>;
  createFromFile(opts: FromFileOptions & { switches: CreateSwitches }): Promise<void>;
  accounts(opts: ListOptions): Promise<void>;
  connectedAccounts(opts: ListOptions): Promise<void>;
  get(opts: ItemOptions): Promise<void>;
  update(opts: UpdateOptions): Promise<void>;
}

/** Registers `users`; `runF` replaces the runners in parse-only tests. */
export function register(program: Command, ctx: CliContext, runF: Partial<UsersRunners> = {}): void {
  const run: UsersRunners = {
    list: (o) => runList('listUsers', o, ctx, USER_COLUMNS),
    create: (o) => runUserCreate(o, ctx),
    createFromFile: (o) =>
      runFromFile(o, { operation: 'createUser', verb: 'created', hints: userFailureHints, columns: USER_COLUMNS, responseOnly: responseOnlyFields('User'), send: async (client, record) => (await client.call('createUser', { body: userCreateBody(record, o.switches) })).data }, ctx),
    get: (o) => runGet('getUser', o, ctx),
    update: (o) => runUpdate({ get: 'getUser', update: 'updateUser', noun: 'user', writable: USER_FIELDS.map((f) => f.key) }, o, ctx),
    accounts: (o) => runList('listUserConferenceAccounts', o, ctx, ACCOUNT_COLUMNS),
    connectedAccounts: (o) => runList('listUserConnectedAccounts', o, ctx, CONNECTED_ACCOUNT_COLUMNS),
    ...runF,
  };
  const users = program.command('users').description("List, create, show and update users; list a user's accounts").addHelpText('after', examples(operationMeta('listUsers').cli.example, operationMeta('getUser').cli.example));

  withExample(addListOptions(users.command('list').description(operationMeta('listUsers').summary), USER_LIST), 'listUsers').action(
    (flags: Flags<{ data?: string }>, cmd: Command) => run.list(listOptions(flags, globalOptions(cmd), USER_LIST)),
  );

  const create = users
    .command('create')
    .description(`${operationMeta('createUser').summary} (inactive, invited by e-mail); asks for missing required fields on a terminal`)
    .addHelpText('after', '\nRequired: first and last name, e-mail, time zone, work hours and role; no --department-id sends none (null).');
  addFromFileOptions(addBodyOptions(create, USER_FIELDS, { clear: false }), { concurrency: true })
    .option('--activate', 'make the user active at once (the key needs users.lock.* besides users.create.*)')
    .option('--silent', 'send no invitation (needs --activate)');
  withExample(create, 'createUser').action((flags: Flags<{ data?: string }>, cmd: Command) => {
    const body = bodyFromFlags(flags, USER_FIELDS);
    const globals = globalOptions(cmd);
    const switches = createSwitches(flags);
    const bulk = fromFileOptions(flags, globals, givenFlags(body, flags));
    return bulk ? run.createFromFile({ ...bulk, switches }) : run.create({ params: {}, body, data: flags.data, globals, switches });
  });

  addGetCommand(users, 'getUser', 'user_id', run.get);

  addUpdateCommand(users, { update: 'updateUser', idParam: 'user_id', fields: USER_FIELDS }, run.update);

  const accounts = users.command('accounts').description(operationMeta('listUserConferenceAccounts').summary).argument('<user_id>');
  withExample(addListOptions(accounts), 'listUserConferenceAccounts').action((id: string, flags: Flags, cmd: Command) =>
    run.accounts(listOptions(flags, globalOptions(cmd), undefined, { user_id: idArg(id, 'user_id') })),
  );

  const connected = users.command('connected-accounts').description(operationMeta('listUserConnectedAccounts').summary).argument('<user_id>');
  withExample(addListOptions(connected), 'listUserConnectedAccounts').action((id: string, flags: Flags, cmd: Command) =>
    run.connectedAccounts(listOptions(flags, globalOptions(cmd), undefined, { user_id: idArg(id, 'user_id') })),
  );
}
