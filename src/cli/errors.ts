import type { Command } from 'commander';
import { AdminError, DomainInUse, MediaMissing } from '../admin/errors.js';
import { ImportError } from '../admin/records.js';
import { isBusyError } from '../store/busy.js';
import { ClockRefused } from '../store/instance-clock.js';
import { SnapshotError } from '../store/snapshots.js';
import { ApiError, type FieldErrors, NetworkError, plainHttpBaseUrl, plainHttpHint, refusedLoopbackPort } from '../client/errors.js';

/** Exit codes (decisions §9). */
export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  validation: 6,
  rateLimited: 7,
  network: 8,
  /** `wait`: a `--fail-on` condition holds. */
  failOn: 9,
  /** `wait`: `--max-wait` passed first (as timeout(1)). */
  timedOut: 124,
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error a command throws on purpose: its message, an optional hint, the exit code and any invalid fields. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.unexpected,
    readonly hint?: string,
    readonly errors?: FieldErrors,
  ) {
    super(message);
  }
}

/** Bad flags, arguments or input (exit 2). */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint);
  }
}

/** Ends the command with `exitCode` and prints nothing more (what there was to say is said). */
export class QuietExit extends CliError {
  override name = 'QuietExit';
  constructor(exitCode: ExitCode) {
    super('', exitCode);
  }
}

/** The exit code of an API answer's status. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 422) return EXIT.validation;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 409) return EXIT.conflict;
  if (status === 429) return EXIT.rateLimited;
  return EXIT.unexpected;
}

/** A store whose lock another process held past the busy timeout; the command wrote nothing. */
const BUSY_MESSAGE = "the store is busy: another process holds its lock (an 'admin seed' or 'admin import' writing to it, for example); nothing was written";
/** The error line of a busy store. */
export const BUSY_LINE = `error: ${BUSY_MESSAGE}`;

/** An admin failure's exit code by its kind: not found 4, conflict 5, invalid 6. */
const ADMIN_EXIT: Record<AdminError['kind'], ExitCode> = { not_found: EXIT.notFound, conflict: EXIT.conflict, invalid: EXIT.validation };

/**
 * How the CLI says a refusal of the admin or store layer that has no `AdminError` kind: its exit
 * code, the message if not the error's own, and a hint. Nothing was changed.
 */
interface Refusal {
  exitCode: ExitCode;
  message?: string;
  hint?: string;
}

/**
 * A snapshot name in use is a conflict (5), anything else about a snapshot bad input (2); a
 * refused clock move (not in manual mode, backwards) and a copy whose `--media` lacks files are
 * bad input (2); a tenant domain in use is a conflict (5). A store whose lock another process held
 * past the busy timeout (e.g. an `admin seed` loading rows) could not be reached in time (8).
 */
function refusal(err: unknown): Refusal | undefined {
  if (err instanceof SnapshotError) {
    if (err.kind === 'exists') return { exitCode: EXIT.conflict, hint: 'add --force to replace it, or pick another name' };
    if (err.kind === 'not_found') return { exitCode: EXIT.usage, hint: "'confctl admin snapshot list' shows the snapshots of this instance" };
    return { exitCode: EXIT.usage };
  }
  if (err instanceof ClockRefused || err instanceof MediaMissing) return { exitCode: EXIT.usage };
  if (err instanceof DomainInUse) return { exitCode: EXIT.conflict };
  if (isBusyError(err)) return { exitCode: EXIT.network, message: BUSY_MESSAGE, hint: 'run it again when that process has finished' };
  if (isRemovedWorkingDir(err)) return { exitCode: EXIT.usage, message: REMOVED_CWD_MESSAGE, hint: 'cd to a directory that exists and run it again' };
  return undefined;
}

const REMOVED_CWD_MESSAGE = 'the working directory no longer exists, so a relative path (a --data DIR, say) cannot be found';

/** Node's failure to read the working directory because it was removed (`process.cwd()`, `path.resolve`). */
function isRemovedWorkingDir(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | null;
  return e?.code === 'ENOENT' && e.syscall === 'uv_cwd';
}

/** The exit code of anything thrown by a command: the one place errors become exit codes. */
export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof CliError) return err.exitCode;
  if (isPromptCancel(err)) return EXIT.interrupted;
  if (err instanceof AdminError) return ADMIN_EXIT[err.kind];
  const refused = refusal(err);
  if (refused) return refused.exitCode;
  // A refused import (`admin import`): every bad record is listed (`errorLines`).
  if (err instanceof ImportError) return EXIT.validation;
  if (err instanceof ApiError) return exitCodeForStatus(err.status);
  if (err instanceof NetworkError) return EXIT.network;
  return EXIT.unexpected;
}

/** Roles are the tenant's own names, and the API has no way to list them. */
const ROLE_HINT = "roles are the tenant's own names and the API cannot list them; on a local instance 'confctl admin roles list' shows them";

/** A department id the instance lacks: departments are the provider's, not the API's. */
export const DEPARTMENT_HINT =
  "department_id names a department of this instance, and the API cannot create one: on a local instance import the departments first ('confctl admin departments list -o ndjson' on the old one, 'confctl admin import departments FILE' on the new one, in id order), or send department_id null";

/** How to fix the base URL. */
const FIX_BASE_URL = "check --base-url, CONFCTL_BASE_URL or the profile's domain ('confctl profile show'); the API's base URL looks like https://acme.example.com/api/public/v2.0";

/** An answer that shows the base URL is wrong: no tenant there, or not the API at all. */
function wrongBaseUrl(err: ApiError): string | undefined {
  const at = err.baseUrl ?? 'the base URL';
  if (err.status === 404 && err.message === 'Unknown tenant.') return `no tenant answers at ${at}: ${FIX_BASE_URL}`;
  if (err.notApi) return `${at} did not answer as the API: ${FIX_BASE_URL}`;
  return undefined;
}

function apiHint(err: ApiError): string | undefined {
  // A local instance's injected fault (`admin faults`) names its rule: not the service failing.
  const fault = err.headers['x-confctl-fault'];
  if (fault) return `the answer was injected by fault rule ${fault} of the local instance: 'confctl admin faults list' shows it, 'confctl admin faults remove ${fault}' ends it`;
  const wrong = wrongBaseUrl(err);
  if (wrong) return wrong;
  switch (exitCodeForStatus(err.status)) {
    case EXIT.auth:
      return err.message === 'Access denied.' && err.permissions.length
        ? `the access key lacks a permission this needs: ${err.permissions.join(', ')}`
        : "check the key with 'confctl profile show', or run 'confctl login'";
    case EXIT.notFound:
      return 'check the id (and the profile: ids belong to one tenant)';
    case EXIT.rateLimited:
      return `still rate limited after ${err.tries} tries; wait a moment and run it again`;
    case EXIT.validation:
      if (err.errors?.role) return ROLE_HINT;
      if (err.errors?.department_id) return DEPARTMENT_HINT;
      return err.errors ? undefined : 'check the flags and values';
    default:
      return err.status >= 500 ? 'the service failed; try again later' : undefined;
  }
}

/** `admin events update` for the command `cmd` (its path below the program). */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** A hint for an admin failure of `kind` in command `cmd` (the one that ran), as client errors have. */
function adminHint(kind: AdminError['kind'], cmd: Command | undefined): string {
  const path = cmd ? commandPath(cmd) : 'admin';
  const lister = cmd?.parent?.commands.find((c) => c.name() === 'list');
  switch (kind) {
    case 'not_found':
      return lister
        ? `'confctl ${commandPath(lister)}' lists what there is; --data, --database and --tenant choose the instance and tenant`
        : 'check the ids and paths; --data, --database and --tenant choose the instance and tenant';
    case 'conflict':
      return `the stored state does not allow this now; 'confctl ${path} --help' says what the command needs`;
    default:
      return `check the flags and values: 'confctl ${path} --help' shows what each takes`;
  }
}

/** Ctrl-C (or a closed terminal) at an @inquirer/prompts question. */
function isPromptCancel(err: unknown): boolean {
  return err instanceof Error && err.name === 'ExitPromptError';
}

/** One indented line per message of a validation failure's fields. */
export const fieldLines = (errors: FieldErrors | undefined): string[] =>
  Object.entries(errors ?? {}).flatMap(([field, messages]) => messages.map((m) => `  ${field}: ${m}`));

/**
 * Stderr lines for an error: one line saying what failed, a hint, one line per invalid field.
 * `cmd` is the command that ran, which an admin failure's hint names.
 */
export function errorLines(err: unknown, cmd?: Command): string[] {
  if (isPromptCancel(err)) return ['cancelled; nothing was sent'];
  if (err instanceof QuietExit) return [];
  if (err instanceof AdminError) return [`error: ${err.message}`, `hint: ${adminHint(err.kind, cmd)}`];
  if (err instanceof ImportError) return [...err.details().map((line) => `  ${line}`), `error: ${err.message}`, 'hint: fix the listed records and run the import again'];
  if (err instanceof CliError) return [`error: ${err.message}`, ...fieldLines(err.errors), ...(err.hint ? [`hint: ${err.hint}`] : [])];
  const refused = refusal(err);
  if (refused) return [`error: ${refused.message ?? (err as Error).message}`, ...(refused.hint ? [`hint: ${refused.hint}`] : [])];
  if (err instanceof ApiError) {
    const hint = apiHint(err);
    const tries = err.tries > 1 ? ` (after ${err.tries} tries)` : '';
    return [`error: ${err.method} ${err.path} failed (${err.status}): ${err.message}${tries}`, ...fieldLines(err.errors), ...(hint ? [`hint: ${hint}`] : [])];
  }
  if (err instanceof NetworkError) {
    const port = refusedLoopbackPort(err.cause, err.url);
    const plain = plainHttpBaseUrl(err, err.url);
    const hint = plain
      ? plainHttpHint(new URL(err.url).host, plain)
      : port !== undefined
        ? `is \`confctl serve\` running on port ${port}? Start it with 'confctl serve' (or check --base-url and the profile)`
        : err.timedOut
          ? 'raise --timeout, or check the service'
          : 'check --base-url / the profile and the network';
    const tries = err.tries > 1 ? ` (after ${err.tries} tries)` : '';
    return [`error: ${err.method} ${err.url}: ${err.message}${tries}`, `hint: ${hint}`];
  }
  const message = err instanceof Error ? err.message : String(err);
  return [`error: unexpected: ${message}`, 'hint: run again with --verbose; if it persists, report it'];
}
