/** `confctl customers list|get|create|update`. */
import type { Command } from 'commander';
import { CUSTOMER_LIST } from '../../../contract/list-specs.js';
import { responseOnlyFields } from '../../../contract/resource-fields.js';
import { operationMeta } from '../../../contract/operations-meta.js';
import { addBodyOptions, bodyFromFlags, type FieldFlag } from '../../body.js';
import { addFromFileOptions, type FromFileOptions, fromFileOptions, givenFlags, runFromFile } from '../../bulk/command.js';
import { type CliContext, globalOptions } from '../../context.js';
import { customerCreateBody, withAddressObject } from '../../edit/complete.js';
import { addUpdateCommand, runUpdate, type UpdateOptions } from '../../edit/update.js';
import {
  addGetCommand,
  addListOptions,
  type Flags,
  type ItemOptions,
  type ListOptions,
  listOptions,
  runGet,
  runList,
  runWrite,
  withExample,
  type WriteOptions,
} from '../resource.js';
import { examples } from '../../help.js';

export const CUSTOMER_FIELDS: readonly FieldFlag[] = [
  { key: 'first_name', kind: 'text', description: 'first name' },
  { key: 'middle_name', kind: 'text', description: 'middle name' },
  { key: 'last_name', kind: 'text', description: 'last name' },
  { key: 'email', kind: 'text', description: 'e-mail address' },
  { key: 'contact_number', kind: 'text', description: 'phone number in E.164, e.g. +441234567890' },
  { key: 'address', kind: 'json', description: 'address JSON: {"line_1","line_2","city","region","region_code","country","country_code","postal_code"}' },
];

/** Table columns when no --fields is given. */
export const CUSTOMER_COLUMNS = ['id', 'name', 'email', 'contact_number', 'created_at'];

export interface CustomersRunners {
  list(opts: ListOptions): Promise<void>;
  get(opts: ItemOptions): Promise<void>;
  create(opts: WriteOptions): Promise<void>;
  createFromFile(opts: FromFileOptions): Promise<void>;
  update(opts: UpdateOptions): Promise<void>;
}

/** Registers `customers`; `runF` replaces the runners in parse-only tests. */
export function register(program: Command, ctx: CliContext, runF: Partial<CustomersRunners> = {}): void {
  const run: CustomersRunners = {
    list: (o) => runList('listCustomers', o, ctx, CUSTOMER_COLUMNS),
    get: (o) => runGet('getCustomer', o, ctx),
    create: (o) => runWrite('createCustomer', o, ctx, customerCreateBody),
    createFromFile: (o) =>
      runFromFile(o, { operation: 'createCustomer', verb: 'created', columns: CUSTOMER_COLUMNS, responseOnly: responseOnlyFields('Customer'), send: async (client, record) => (await client.call('createCustomer', { body: customerCreateBody(record) })).data }, ctx),
    update: (o) =>
      runUpdate({ get: 'getCustomer', update: 'updateCustomer', noun: 'customer', writable: CUSTOMER_FIELDS.map((f) => f.key), finish: withAddressObject }, o, ctx),
    ...runF,
  };
  const customers = program.command('customers').description('List, show, create and update customers').addHelpText('after', examples(operationMeta('listCustomers').cli.example, operationMeta('getCustomer').cli.example));

  withExample(addListOptions(customers.command('list').description(operationMeta('listCustomers').summary), CUSTOMER_LIST), 'listCustomers').action(
    (flags: Flags<{ data?: string }>, cmd: Command) => run.list(listOptions(flags, globalOptions(cmd), CUSTOMER_LIST)),
  );

  addGetCommand(customers, 'getCustomer', 'customer_id', run.get);

  const create = customers.command('create').description(`${operationMeta('createCustomer').summary} (first name, last name and e-mail required)`);
  addFromFileOptions(addBodyOptions(create, CUSTOMER_FIELDS, { clear: false }), { concurrency: true });
  withExample(create, 'createCustomer').action((flags: Flags<{ data?: string }>, cmd: Command) => {
    const body = bodyFromFlags(flags, CUSTOMER_FIELDS);
    const globals = globalOptions(cmd);
    const bulk = fromFileOptions(flags, globals, givenFlags(body, flags));
    return bulk ? run.createFromFile(bulk) : run.create({ params: {}, body, data: flags.data, globals });
  });

  addUpdateCommand(customers, { update: 'updateCustomer', idParam: 'customer_id', fields: CUSTOMER_FIELDS }, run.update);
}
