import { describe, expect, it } from 'vitest';
import * as customers from '../../src/cli/commands/customers/index.js';
import * as profile from '../../src/cli/commands/profile/index.js';
import * as users from '../../src/cli/commands/users/index.js';
import { commandName, createProgram } from '../../src/cli/main.js';
import { fake } from './helpers.js';

/** Parses argv with the runners replaced: flags → options, no I/O. */
async function parse(register: (p: ReturnType<typeof createProgram>, captured: unknown[]) => void, args: string[]) {
  const { ctx } = fake();
  const program = createProgram(ctx);
  const captured: unknown[] = [];
  register(program, captured);
  await program.parseAsync(args, { from: 'user' });
  return captured[0] as Record<string, any>;
}
const capture = (captured: unknown[]) => async (o: unknown) => void captured.push(o);
const usersCmd = (args: string[]) =>
  parse(
    (p, c) =>
      users.register(p, fake().ctx, { list: capture(c), get: capture(c), update: capture(c), accounts: capture(c), connectedAccounts: capture(c) }),
    args,
  );
const customersCmd = (args: string[]) =>
  parse((p, c) => customers.register(p, fake().ctx, { list: capture(c), get: capture(c), create: capture(c), update: capture(c) }), args);

describe('users', () => {
  it('list: filter, sort, paging and global options', async () => {
    const o = await usersCmd(['users', 'list', '--filter', 'email~@acme.com', '--sort', '-created_at', '--page', '2', '--page-size', '50', '--with-trashed', '-o', 'csv', '--fields', 'id,email', '--timeout', '2.5']);
    expect(o.query).toEqual({
      filter_attribute: 'email',
      filter_operator: 'Contains',
      filter_value: '@acme.com',
      order_by: 'created_at',
      order_direction: 'desc',
      with_trashed: true,
      page_number: 2,
      page_size: 50,
    });
    expect(o.all).toBe(false);
    expect(o.globals).toMatchObject({ output: 'csv', fields: ['id', 'email'], timeoutMs: 2500, raw: false, verbose: false });
  });

  it('--timeout defaults to 30 seconds, the default the help text names', async () => {
    const o = await usersCmd(['users', 'get', '42']);
    expect(o.globals.timeoutMs).toBe(30_000);
    expect(createProgram(fake().ctx).helpInformation()).toMatch(/--timeout <seconds> +request timeout in seconds \(default: 30\)/);
  });

  it('accounts and connected-accounts: the user id and paging', async () => {
    const a = await usersCmd(['users', 'accounts', '42', '--page', '2', '--page-size', '5']);
    expect(a.params).toEqual({ user_id: '42' });
    expect(a.query).toMatchObject({ page_number: 2, page_size: 5 });
    const c = await usersCmd(['users', 'connected-accounts', '7', '--all']);
    expect(c.params).toEqual({ user_id: '7' });
    expect(c.all).toBe(true);
    await expect(usersCmd(['users', 'accounts', 'abc'])).rejects.toThrow(/user_id/);
  });

  it('--all asks for the largest page (100) unless --page-size is given; one page keeps the API default', async () => {
    expect((await usersCmd(['users', 'list', '--all'])).query).toEqual({ page_size: 100 });
    expect((await usersCmd(['users', 'list', '--all', '--page-size', '20'])).query).toEqual({ page_size: 20 });
    expect((await usersCmd(['users', 'list'])).query).toEqual({});
    expect((await usersCmd(['users', 'accounts', '42', '--all'])).query).toEqual({ page_size: 100 });
  });

  it('global options may come before the command', async () => {
    const o = await usersCmd(['--profile', 'x', '--raw', 'users', 'list', '--all']);
    expect(o).toMatchObject({ all: true, globals: { profile: 'x', raw: true } });
  });

  it('update: typed fields, --clear and --data', async () => {
    const o = await usersCmd(['users', 'update', '42', '--department-id', '3', '--role', 'Manager', '--clear', 'timezone', '--work-hours', '{"monday":[]}', '--data', '@body.json']);
    expect(o).toMatchObject({
      params: { user_id: '42' },
      body: { department_id: 3, role: 'Manager', timezone: null, work_hours: { monday: [] } },
      data: '@body.json',
    });
  });

  it.each([
    [['users', 'get', 'abc'], /user_id must be a positive integer/],
    [['users', 'update', '1', '--department-id', 'x'], /--department-id must be an integer/],
    [['users', 'update', '1', '--clear', 'status'], /cannot clear 'status'/],
    [['users', 'update', '1', '--work-hours', '{'], /--work-hours is not valid JSON/],
    [['users', 'list', '--page-size', '101'], /at most 100/],
    [['users', 'list', '--page', '0'], /positive integer/],
    [['users', 'list', '--filter', 'middle_name=x'], /cannot filter by 'middle_name'/],
  ])('rejects %j', async (args, message) => {
    await expect(usersCmd(args)).rejects.toThrow(message);
  });
});

describe('customers', () => {
  it('create: one flag per field', async () => {
    const o = await customersCmd(['customers', 'create', '--first-name', 'Ada', '--middle-name', 'K', '--last-name', 'Lovelace', '--email', 'ada@example.com', '--contact-number', '+441234567890', '--address', '{"city":"London"}']);
    expect(o.body).toEqual({ first_name: 'Ada', middle_name: 'K', last_name: 'Lovelace', email: 'ada@example.com', contact_number: '+441234567890', address: { city: 'London' } });
    expect(o.data).toBeUndefined();
  });
  it('create has no --clear', async () => {
    await expect(customersCmd(['customers', 'create', '--clear', 'email'])).rejects.toMatchObject({ code: 'commander.unknownOption' });
  });
  it('list: a customer-only attribute', async () => {
    expect((await customersCmd(['customers', 'list', '--filter', 'city_country~Berlin'])).query).toEqual({ filter_attribute: 'city_country', filter_operator: 'Contains', filter_value: 'Berlin' });
  });
});

describe('profile', () => {
  const profileCmd = (args: string[]) =>
    parse((p, c) => profile.register(p, fake().ctx, { add: capture(c), list: capture(c), use: capture(c), show: capture(c), remove: capture(c) }), args);
  it('add takes the global --base-url', async () => {
    expect(await profileCmd(['profile', 'add', 'local', '--base-url', 'http://localhost:8080/api/public/v2.0', '--key-id', 'ak_1', '--secret-stdin'])).toMatchObject({
      name: 'local',
      baseUrl: 'http://localhost:8080/api/public/v2.0',
      keyId: 'ak_1',
      secretStdin: true,
    });
  });
  it('add rejects both --domain and --base-url', async () => {
    await expect(profileCmd(['profile', 'add', 'x', '--domain', 'a', '--base-url', 'http://b'])).rejects.toThrow(/not both/);
  });
});

describe('commandName', () => {
  it('skips global options and their values', () => {
    expect(commandName(['--profile', 'users', '-o', 'json', 'customers', 'list'])).toBe('customers');
    expect(commandName(['--verbose', 'help', 'users'])).toBe('users');
    expect(commandName(['--help'])).toBeUndefined();
  });
});
