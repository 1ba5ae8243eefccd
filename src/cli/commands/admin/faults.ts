/**
 * `confctl admin faults add|list|remove|clear`: injected faults of a local instance (issue 25),
 * stored in its data directory or PostgreSQL database, where every `serve` on it applies them
 * from its next request on. The rules and how serve applies them: contract/faults.ts and
 * server/faults.ts.
 */
import type { Command } from 'commander';
import type { FaultRuleFields } from '../../../contract/faults.js';
import type { DataStore } from '../../../store/port.js';
import type { FaultRuleRecord } from '../../../store/types.js';
import { type CliContext, CliError, EXIT, outputFormat, UsageError } from '../../context.js';
import { examples } from '../../help.js';
import type { Row } from '../../output/index.js';
import { type AdminCommon, commonOptions } from './flags.js';

/** Parsed flags of one `admin faults` command; the rules are in the data directory or PostgreSQL database its store flags name. */
export type FaultsOptions = AdminCommon & (
    | { action: 'add'; rule: FaultRuleFields; tenant?: string }
    | { action: 'list' }
    | { action: 'remove'; id: number }
    | { action: 'clear' }
  );

/** The columns of `list` (and the fields of `add`'s answer). */
const COLUMNS = ['id', 'route', 'status', 'rate', 'latency', 'times', 'remaining', 'matched', 'fired', 'tenant', 'seed'];

/** A stored rule as the command prints it (`faultRuleView`). */
async function ruleRow(store: DataStore, rule: FaultRuleRecord): Promise<Row> {
  const { faultRuleView } = await import('../../../contract/faults.js');
  const tenant = rule.tenant_id === null ? null : ((await store.tenants.get(rule.tenant_id))?.primary_domain ?? String(rule.tenant_id));
  return { ...faultRuleView(rule, tenant) };
}

/** The rule's fields checked, and its tenant resolved: exit 2 for a refused rule, 4 for an unknown tenant. */
async function ruleToAdd(store: DataStore, options: Extract<FaultsOptions, { action: 'add' }>) {
  const { parseFaultRule } = await import('../../../contract/faults.js');
  const parsed = parseFaultRule(options.rule);
  if ('errors' in parsed) {
    const messages = Object.values(parsed.errors).flat();
    throw new CliError(`fault rule refused: ${messages[0]}`, EXIT.usage, "'confctl admin faults add --help' shows what each flag takes", messages.length > 1 ? parsed.errors : undefined);
  }
  let tenantId: number | null = null;
  if (options.tenant !== undefined) {
    const tenant = await store.tenants.byDomain(options.tenant.toLowerCase());
    if (!tenant) throw new CliError(`no tenant has the domain '${options.tenant}'`, EXIT.notFound, "see 'confctl admin tenants list'");
    tenantId = tenant.id;
  }
  return { ...parsed.rule, tenant_id: tenantId };
}

export async function runFaults(options: FaultsOptions, ctx: CliContext): Promise<void> {
  const { renderItem, listWriter } = await import('../../output/index.js');
  const { globals } = options;
  const format = outputFormat(ctx, globals);
  const item = (row: Row) => renderItem(ctx.streams, row, { format, fields: globals.fields, query: globals.query });
  const { dryRun } = options.store;
  const planned = (line: string) => {
    ctx.streams.stdout.write(`${line}\n`);
    ctx.streams.stderr.write('dry run: nothing was changed\n');
  };
  // A rule's created_at is dated by the instance's clock, the manual one when serve runs on it (withStore).
  const { withStore } = await import('./store.js');
  await withStore(ctx, options.store, options.action !== 'list', async ({ store }) => {
    switch (options.action) {
      case 'add': {
        const rule = await ruleToAdd(store, options);
        const { faultRoute } = await import('../../../contract/faults.js');
        if (dryRun) return planned(`would add a fault rule on ${faultRoute(rule)}`);
        return item(await ruleRow(store, await store.faults.add(rule)));
      }
      case 'list': {
        const writer = listWriter(ctx.streams, { format, fields: globals.fields, columns: COLUMNS, query: globals.query });
        for (const rule of await store.faults.list()) await writer.write([await ruleRow(store, rule)]);
        return writer.end();
      }
      case 'remove': {
        const found = await store.faults.get(options.id);
        if (!found) throw new CliError(`no fault rule has the id ${options.id}`, EXIT.notFound, "'confctl admin faults list' lists the rules");
        if (dryRun) return planned(`would remove fault rule ${options.id}`);
        await store.faults.remove(options.id);
        return item({ removed: options.id });
      }
      case 'clear': {
        if (dryRun) {
          const count = (await store.faults.list()).length;
          return planned(`would remove ${count} fault rule${count === 1 ? '' : 's'}`);
        }
        return item({ removed: await store.faults.clear() });
      }
    }
  });
}

const HELP = `
A rule names a route of the API, METHOD PATH with the path template that 'confctl api --help'
lists ('POST /customers', 'PATCH /users/{user_id}'), or '* PATH' for every method of the path.
Every confctl serve on this data directory or database applies it from its next request on,
with or without --test-controls; nothing else ever injects a fault.

A request of the route (and of the tenant, with --tenant) that the rate picks is answered with
--status instead of being handled, so nothing is written: the service's own body for that status
(503 'Service busy, try again.', which confctl's client retries whatever the method; 429 'Too
many requests.'; both with Retry-After: 1), and the header X-Confctl-Fault: ID naming the rule.
--latency delays the answer; without --status the request is then handled as usual. The check
comes after the route and the Host's tenant, before rate limits and keys.

Which requests a rate picks is repeatable: a rule counts the requests that match it (1, 2, 3,
…; across every instance sharing a database) and picks the n-th when the n-th number of the
mulberry32 generator seeded with --seed is below --rate. Rules are tried in id order and the
first that picks a request applies; --times N ends a rule after N picked requests (it is then
spent, and list shows remaining 0). 'list' shows how many requests each matched and fired.

A harness without a shell does the same over HTTP on a serve started with --test-controls:
GET /_confctl/faults (list), POST /_confctl/faults with a JSON body {"route": "POST /customers",
"status": 503, "rate": 0.2, "latency": "2s", "times": 3, "tenant": "acme.test", "seed": 7}
(400 naming each problem of a refused rule), DELETE /_confctl/faults/ID and DELETE
/_confctl/faults (clear).`;

const STORE_FLAGS: [string, string][] = [
  ['--data <dir>', 'data directory (default: CONFCTL_DATA, else ~/.local/share/confctl)'],
  ['--database <url>', 'the rules of this PostgreSQL database instead of a data directory (default: CONFCTL_DATABASE_URL, unless --data is given)'],
];
const withStoreFlags = (cmd: Command) => STORE_FLAGS.reduce((c, [flag, text]) => c.option(flag, text), cmd);

/** Flags → options of `admin faults add`; no I/O. The rule's fields are checked when it runs. */
export function addOptions(flags: Record<string, string | undefined>, common: AdminCommon): FaultsOptions {
  const { tenant, route, status, rate, latency, times, seed } = flags;
  return { action: 'add', tenant, rule: { route, status, rate, latency, times, seed }, ...common };
}

/** Registers `admin faults`; `runF` replaces the runner in parse-only tests. */
export function registerFaults(admin: Command, ctx: CliContext, runF?: (options: FaultsOptions) => Promise<void>): void {
  const run = runF ?? ((options: FaultsOptions) => runFaults(options, ctx));
  const faults = admin
    .command('faults')
    .description('Inject faults into a local instance: chosen requests answer an error or come late (for testing clients)')
    .addHelpText('after', `${HELP}\n${examples("confctl admin faults add --route 'POST /customers' --status 503 --rate 0.2 --seed 7", 'confctl admin faults list', 'confctl admin faults clear')}`);

  withStoreFlags(faults.command('add'))
    .description('Add a fault rule; it applies from the next request on')
    .requiredOption('--route <route>', "METHOD PATH of the API ('POST /customers', 'PATCH /users/{user_id}', '* /customers')")
    .option('--status <status>', 'answer this status instead of handling the request: 400, 401, 404, 429, 500 or 503')
    .option('--rate <rate>', 'the share of matching requests picked, above 0 and at most 1 (default 1: every one)')
    .option('--latency <duration>', 'delay the answer this long (a number with ms, s, m or h; a bare number is seconds)')
    .option('--times <n>', 'stop after this many picked requests (default: never)')
    .option('--tenant <domain>', "only requests to this tenant's domains (default: every tenant)")
    .option('--seed <n>', 'seed of the sequence that picks requests, 0 to 4294967295 (default 42)')
    .addHelpText(
      'after',
      `\nPrints the rule with its id. Refused with exit 2 when the route matches no route of the API (with a
'did you mean'), or a value is out of range; exit 4 for an unknown --tenant.
${examples(
  "confctl admin faults add --route 'POST /customers' --status 503 --rate 0.5 --seed 1",
  "confctl admin faults add --route '* /users/{user_id}' --latency 2s --times 3",
  "confctl admin faults add --route 'GET /users' --status 429 --tenant acme.test --database postgres://confctl@localhost/confctl",
)}`,
    )
    .action((flags: Record<string, string | undefined>, cmd: Command) => run(addOptions(flags, commonOptions(cmd))));

  withStoreFlags(faults.command('list'))
    .description('List the fault rules in the order serve tries them: what each matched and fired, and what remains')
    .addHelpText('after', examples('confctl admin faults list -o json'))
    .action((_flags: unknown, cmd: Command) => run({ action: 'list', ...commonOptions(cmd) }));

  withStoreFlags(faults.command('remove').argument('<id>', 'the rule, as list shows it'))
    .description('Remove a fault rule (exit 4 when there is none with that id)')
    .addHelpText('after', examples('confctl admin faults remove 3'))
    .action((id: string, _flags: unknown, cmd: Command) => {
      if (!/^[1-9][0-9]{0,15}$/.test(id)) throw new UsageError(`the rule id must be a whole number, not '${id}'`, "'confctl admin faults list' lists the rules");
      return run({ action: 'remove', id: Number(id), ...commonOptions(cmd) });
    });

  withStoreFlags(faults.command('clear'))
    .description('Remove every fault rule')
    .addHelpText('after', examples('confctl admin faults clear --data ./data'))
    .action((_flags: unknown, cmd: Command) => run({ action: 'clear', ...commonOptions(cmd) }));
}
