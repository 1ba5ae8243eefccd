/**
 * `confctl admin clock set TIME|advance DURATION|show`: the manual clock of an instance that
 * `serve --clock manual` runs (src/store/instance-clock.ts). The clock is stored in the data
 * directory or the PostgreSQL database, so a running serve (every instance on the database) reads
 * the move before its next request, and its webhook sender at its next look.
 */
import type { Command } from 'commander';
import type { DataStore } from '../../../store/port.js';
import { ClockRefused, type ClockMove, moveClock, parseClockMove, showClock } from '../../../store/instance-clock.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { examples } from '../../help.js';
import { type AdminCommon, commonOptions } from './flags.js';

/** What `admin clock` does: show the manual clock, or move it. */
export type ClockOptions = { action: 'show' } | ClockMove;

export interface ClockDeps {
  store: DataStore;
}

/** What `admin clock` prints: where the clock stands, and after a move where it stood. */
export interface ClockReport {
  clock: string;
  moved_from?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `admin clock …` flags → options; a malformed TIME or DURATION is a bad flag value, exit 2, as every command's flag parsing says it. */
export function parseClockOptions(action: 'show' | 'set' | 'advance', value?: string): ClockOptions {
  if (action === 'show') return { action };
  try {
    return parseClockMove(action, value ?? '');
  } catch (err) {
    throw err instanceof ClockRefused ? new UsageError(err.message) : err;
  }
}

/** A refused move (`ClockRefused`: not in manual mode, or backwards) writes nothing; src/cli/errors.ts says it as exit 2. */
export async function run(options: ClockOptions, deps: ClockDeps): Promise<ClockReport> {
  if (options.action === 'show') return { clock: iso((await showClock(deps.store)).at_ms) };
  const { from, to } = await moveClock(deps.store, options);
  return { clock: iso(to), moved_from: iso(from) };
}

const DATA = ['--data <dir>', 'data directory (default: CONFCTL_DATA, else ~/.local/share/confctl)'] as const;
const DATABASE = ['--database <url>', 'the PostgreSQL database instead (default: CONFCTL_DATABASE_URL, unless --data is given)'] as const;

/** Opens the store the common options name, runs `options` on it and prints the report. */
async function act(ctx: CliContext, common: AdminCommon, options: ClockOptions): Promise<void> {
  const [{ withStore }, { print }] = await Promise.all([import('./store.js'), import('./local.js')]);
  await withStore(ctx, common.store, options.action !== 'show', async ({ store }) => print(ctx, common.globals, { ...(await run(options, { store })) }));
}

export function registerClock(admin: Command, ctx: CliContext): void {
  const clock = admin
    .command('clock')
    .description("Show or move the clock of an instance that 'serve --clock manual' runs")
    .addHelpText(
      'after',
      `
An instance started with 'confctl serve --clock manual' runs on a clock that moves only when told.
It starts at the real time (or where it last stood, if later), and everything dated in the data
reads it: created_at/updated_at, conference and recording times, recording-link and join-token
expiry, webhook retry times (10 s, 30 s, 2 min, 10 min) and delivery pruning. Advancing past a
retry time sends the delivery; past an expiry, the link answers 403. Rate-limit windows and
timeouts keep real time. The clock is stored in the data directory (or the PostgreSQL database,
for every instance on it), so these commands reach a running serve.

The clock never moves backwards: a TIME earlier than where it stands is refused (exit 2), and
so is any clock command on an instance that runs on the real clock. Nothing is changed then.
${examples('confctl admin clock show', 'confctl admin clock advance 10m', 'confctl admin clock set 2030-01-31T09:00:00Z --data ./data -o json')}`,
    );
  clock
    .command('show')
    .description('Print where the manual clock stands')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText('after', examples('confctl admin clock show -o json   # {"clock": "2030-01-31T09:00:00.000Z"}'))
    .action(async (_opts, cmd: Command) => act(ctx, commonOptions(cmd), parseClockOptions('show')));
  clock
    .command('set <time>')
    .description('Set the manual clock to TIME (ISO 8601; without an offset, UTC), never earlier than it stands')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText('after', examples('confctl admin clock set 2030-01-31T09:00:00Z', 'CONFCTL_DATABASE_URL=postgres://confctl@localhost/confctl confctl admin clock set 2030-02-01'))
    .action(async (time: string, _opts, cmd: Command) => act(ctx, commonOptions(cmd), parseClockOptions('set', time)));
  clock
    .command('advance <duration>')
    .description('Move the manual clock on by DURATION: a number with ms, s, m or h (a bare number is seconds)')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText('after', examples('confctl admin clock advance 10m   # past the 2 min webhook retry: the delivery goes out', 'confctl admin clock advance 90   # 90 seconds'))
    .action(async (duration: string, _opts, cmd: Command) => act(ctx, commonOptions(cmd), parseClockOptions('advance', duration)));
}
