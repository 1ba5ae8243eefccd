/**
 * `confctl doctor`: checks the selected profile end to end and prints one row per check (check,
 * status ok/warn/fail, detail). Exit 0 when the key works (whatever permissions it lacks), 2 when
 * the setup is incomplete, 3 when the key is rejected, 4 for an unknown tenant, 8 when the API
 * cannot be reached, 1 for anything else unexpected.
 */
import type { Command } from 'commander';
import { NetworkError } from '../../../client/errors.js';
import { baseUrlProblem, type CliContext, CliError, EXIT, type GlobalOptions, globalOptions, outputFormat } from '../../context.js';
import { errorLines, type ExitCode } from '../../errors.js';
import { listWriter } from '../../output/index.js';
import { keyHeaders, type RawAnswer, resolveUrl, sendRaw } from '../api/http.js';
import { configRow, type Row, settingsRows } from './config.js';
import { judge, type Probe, PROBES, UNPROBED } from './probes.js';
import { type ExitCodeNote, exitCodes } from '../../exit-codes.js';
import { examples } from '../../help.js';

/** What doctor's exit code says about the profile. */
const DOCTOR_EXIT_CODES: readonly ExitCodeNote[] = [
  { code: EXIT.ok, meaning: 'the key works' },
  { code: EXIT.usage, meaning: 'setup incomplete' },
  { code: EXIT.auth, meaning: 'key rejected' },
  { code: EXIT.notFound, meaning: 'unknown tenant' },
  { code: EXIT.network, meaning: 'unreachable' },
];

export interface DoctorDeps {
  /** Waits for the rate-limit window to reset (tests pass an instant one). */
  sleep?: (ms: number) => Promise<void>;
}

/** Runs the checks and prints them; a failure that makes the key unusable ends with its exit code. */
export async function runDoctor(globals: GlobalOptions, ctx: CliContext, deps: DoctorDeps = {}): Promise<void> {
  const rows: Row[] = [configRow((await ctx.config()).path)];
  const done = async (failure?: { message: string; code: ExitCode; hint?: string }) => {
    const writer = listWriter(ctx.streams, { format: outputFormat(ctx, globals), fields: globals.fields, columns: ['check', 'status', 'detail'], query: globals.query });
    await writer.write(rows as unknown as Record<string, unknown>[]);
    await writer.end();
    if (failure) throw new CliError(failure.message, failure.code, failure.hint);
  };

  const local = await settingsRows(ctx, globals);
  rows.push(...local.rows);
  const s = local.settings;
  if (!s?.baseUrl || baseUrlProblem(s.baseUrl) || !s.keyId || !s.secret) return done({ message: 'the profile is incomplete: see the failed checks', code: EXIT.usage });

  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const log = globals.verbose ? (l: string) => void ctx.streams.stderr.write(`${l}\n`) : undefined;
  const probe = async (p: Probe): Promise<RawAnswer> => {
    const headers = keyHeaders(s.keyId!, s.secret!);
    const body = p.body === undefined ? undefined : JSON.stringify(p.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await sendRaw({ method: p.method, url: resolveUrl(s.baseUrl!, p.path), headers, body }, { timeoutMs: globals.timeoutMs, log, sleep });
    // Stay inside the rate limit: when the window is used up, wait for the next one.
    if (answer.headers['ratelimit-remaining'] === '0') await sleep(Math.max(1, Number(answer.headers['ratelimit-reset']) || 1) * 1000);
    return answer;
  };

  let first: RawAnswer;
  try {
    first = await probe(PROBES[0]);
  } catch (err) {
    if (!(err instanceof NetworkError)) throw err;
    rows.push({ check: 'reachable', status: 'fail', detail: `${s.baseUrl}: ${err.message}` });
    return done({ message: `cannot reach ${s.baseUrl}`, code: EXIT.network, hint: errorLines(err).find((l) => l.startsWith('hint: '))?.slice(6) });
  }
  rows.push({ check: 'reachable', status: 'ok', detail: `answered ${first.status} in ${first.ms} ms` });
  const text = first.text.trim();
  if (first.status === 404 && text === 'Unknown tenant.') {
    rows.push({ check: 'tenant', status: 'fail', detail: 'Unknown tenant.: no tenant has this host name' });
    return done({ message: 'the base URL names no tenant', code: EXIT.notFound });
  }
  if (first.status === 401 && text !== 'Access denied.') {
    rows.push({ check: 'key valid', status: 'fail', detail: `rejected: ${text || first.status}` });
    return done({ message: 'the access key was rejected (wrong id or secret, revoked or expired)', code: EXIT.auth });
  }
  if (first.status >= 500) {
    rows.push({ check: 'key valid', status: 'fail', detail: `the service failed (${first.status})` });
    return done({ message: 'the service failed; try again later', code: EXIT.unexpected });
  }
  rows.push({ check: 'key valid', status: 'ok', detail: 'accepted' });

  const granted = new Map<string, boolean | undefined>();
  for (const p of PROBES) {
    let answer: RawAnswer;
    try {
      answer = p === PROBES[0] ? first : await probe(p);
    } catch (err) {
      if (!(err instanceof NetworkError)) throw err;
      rows.push({ check: p.permission, status: 'warn', detail: `unknown: ${err.message}` });
      continue;
    }
    const verdict = judge(p, answer.status, answer.text, (q) => granted.get(q));
    granted.set(p.permission, verdict.status === 'ok' ? true : verdict.status === 'fail' ? false : undefined);
    rows.push({ check: p.permission, ...verdict });
  }
  for (const u of UNPROBED) rows.push({ check: u.permission, status: 'skip', detail: u.detail });
  return done();
}

export function register(program: Command, ctx: CliContext, runF?: (globals: GlobalOptions) => Promise<void>): void {
  const doctor = program
    .command('doctor')
    .description("Check the profile: config file, base URL, reachability, the key and each permission (changes nothing)")
    .addHelpText(
      'after',
      '\nWrites are probed with requests that cannot succeed (an invalid body or an id that does not exist):\n' +
        "400 or 404 means the permission is granted, 401 'Access denied.' that it is not.\n" +
        'users.lock.* is shown as skip (not probed): only a valid user create with activate would tell.',
    );
  exitCodes(doctor, DOCTOR_EXIT_CODES)
    .addHelpText('after', examples('confctl doctor', 'confctl doctor --profile acme -o json'))
    .action((_flags, cmd: Command) => (runF ?? ((g) => runDoctor(g, ctx)))(globalOptions(cmd)));
}
