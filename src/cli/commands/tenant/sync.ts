/**
 * `confctl sync users|customers --from FILE`: a roster from another system (CSV, NDJSON or JSON)
 * planned against the tenant through a column mapping, with defaults for what a created record
 * needs, then applied as `apply -f` is (asking first on a terminal), or saved with `--out`.
 * Records are matched by e-mail, ignoring case as the server does, or by the API's id (`--key id`).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { parse } from 'yaml';
import { desiredOf } from '../../tenant/desired.js';
import { defaultsFor, type Mapping, MappingError, mappingOf, mapRecords, parseDefaultsSpec, parseMapSpec, type SyncKind, syncKeyOf } from '../../tenant/mapping.js';
import type { Problem, Record_ } from '../../tenant/model.js';
import { readRecords } from '../../bulk/records.js';
import { apiClient, type CliContext, globalOptions, UsageError } from '../../context.js';
import { examples } from '../../help.js';
import { addApplyFlags, type ApplyFlags, applyFlags, confirmAndApply } from './apply.js';
import { planAgainstTenant, printPlan, refuseProblems, savePlan } from './flow.js';
import type { Flags } from '../resource.js';

export interface SyncOptions extends ApplyFlags {
  kind: SyncKind;
  from: string;
  map?: string;
  mapFile?: string;
  /** `--key`: email (default), id, or a column mapped to one of them. */
  key?: string;
  defaults?: string;
  unmanaged: 'ignore' | 'fail';
  out?: string;
}

/** A YAML or JSON file's value (a mapping file, a defaults file). */
async function readObjectFile(file: string, flag: string): Promise<unknown> {
  try {
    return parse(await readFile(file, 'utf8')) as unknown;
  } catch (err) {
    throw new UsageError(`cannot read ${flag} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

async function mappingFor(opts: SyncOptions): Promise<Mapping | undefined> {
  if (opts.map !== undefined && opts.mapFile !== undefined) throw new UsageError('give --map or --map-file, not both');
  if (opts.map !== undefined) return parseMapSpec(opts.map, opts.kind);
  if (opts.mapFile !== undefined) return mappingOf(await readObjectFile(opts.mapFile, '--map-file'), opts.kind);
  return undefined;
}

/** `--defaults FILE` (YAML or JSON object) or `--defaults k=v,…`, over the built-in defaults. */
async function defaultsOf(opts: SyncOptions): Promise<Record_> {
  if (opts.defaults === undefined) return defaultsFor(opts.kind, {});
  if (!opts.defaults.includes('=') || existsSync(opts.defaults)) {
    const value = await readObjectFile(opts.defaults, '--defaults');
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('a --defaults file holds one object of field: value');
    return defaultsFor(opts.kind, value as Record_);
  }
  return defaultsFor(opts.kind, parseDefaultsSpec(opts.defaults));
}

export async function runSync(opts: SyncOptions, ctx: CliContext): Promise<void> {
  const name = opts.from === '-' ? 'stdin' : opts.from;
  let desired;
  const problems: Problem[] = [];
  try {
    const mapping = await mappingFor(opts);
    const key = syncKeyOf(opts.key, mapping, opts.kind);
    const defaults = await defaultsOf(opts);
    const raws = (await readRecords(opts.from, ctx.streams.stdin)).map(({ line, record }) => ({ value: record, file: name, line, lineOf: () => line }));
    desired = desiredOf(opts.kind, mapRecords(raws, opts.kind, mapping, key), problems, { partial: true, matchById: key === 'id' }).map((d) => ({ ...d, defaults }));
  } catch (err) {
    if (err instanceof MappingError) throw new UsageError(err.message);
    throw err;
  }
  if (problems.length) refuseProblems(problems);
  const { client, format } = await apiClient(ctx, opts.globals);
  const plan = await planAgainstTenant(ctx, client, { desired: { [opts.kind]: desired }, prune: false, sources: [], declared: opts.declared });
  const unmanaged = plan.unmanaged[opts.kind];
  if (opts.unmanaged === 'fail' && unmanaged.length) {
    refuseProblems(unmanaged.map((key) => ({ file: name, key, message: `in the tenant but not in the file (--unmanaged fail)` })));
  }
  if (opts.out) {
    await printPlan(ctx, plan, format, { color: opts.color });
    await savePlan(opts.out, plan);
    ctx.streams.stderr.write(`saved the plan to ${opts.out}: 'confctl apply ${opts.out}' carries it out\n`);
    return;
  }
  await confirmAndApply(ctx, client, plan, opts, format);
}

export function register(program: Command, ctx: CliContext, run = runSync): void {
  const sync = program
    .command('sync')
    .description("Plan and apply users or customers from another system's export (CSV, NDJSON, JSON) through a column mapping")
    .addHelpText('after', examples('confctl sync users --from hr.csv --map "Work Email=email,Dept=department" --out plan.json'));
  for (const kind of ['users', 'customers'] as const) {
    const cmd = sync
      .command(kind)
      .description(`Plan and apply ${kind} from a roster file: creates and updates by e-mail (or id); ${kind} the file lacks are listed as unmanaged, never deleted`)
      .requiredOption('--from <file>', 'the roster: CSV with a header row, NDJSON or a JSON array (- for stdin)')
      .option('--map <pairs>', 'which column gives which field, e.g. "Work Email=email,Given Name=first_name,Dept=department"')
      .option('--map-file <file>', 'the mapping as a YAML or JSON object {"Work Email": "email", …}')
      .option('--key <field>', `what matches a record to one of the tenant's ${kind}: email (default, ignoring case) or id (a column mapped to id; a record without one matches by e-mail), the only keys the API keeps unique`)
      .option('--defaults <file|pairs>', kind === 'users'
        ? 'fields for users to be created that the file lacks: a YAML/JSON file or k=v,… (built in: timezone UTC, role Member, no work hours, department null, activate false)'
        : 'fields for customers to be created that the file lacks: a YAML/JSON file or k=v,…')
      .addOption(new Option('--unmanaged <policy>', `what to do with ${kind} in the tenant but not in the file: list them (ignore) or refuse the plan (fail)`).choices(['ignore', 'fail']).default('ignore'))
      .option('--out <file>', 'save the plan for `confctl apply FILE` instead of applying it');
    addApplyFlags(cmd)
      .addHelpText('after', examples(`confctl sync ${kind} --from hr.csv --map "Work Email=email,Given Name=first_name" --out plan.json`, `confctl sync ${kind} --from hr.csv --yes`))
      .action((flags: Flags<Pick<SyncOptions, 'from' | 'map' | 'mapFile' | 'key' | 'defaults' | 'unmanaged' | 'out'>>, c: Command) =>
        run({ ...applyFlags(flags, globalOptions(c)), kind, from: flags.from, map: flags.map, mapFile: flags.mapFile, key: flags.key, defaults: flags.defaults, unmanaged: flags.unmanaged, out: flags.out }, ctx),
      );
  }
}
