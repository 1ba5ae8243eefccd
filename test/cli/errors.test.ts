import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BUSY_LINE, CliError, errorLines, exitCodeFor, UsageError } from '../../src/cli/errors.js';
import { Command } from 'commander';
import { AdminError, DomainInUse, MediaMissing } from '../../src/admin/errors.js';
import { ImportError } from '../../src/admin/records.js';
import { ApiError, NetworkError } from '../../src/client/errors.js';
import { ClockRefused } from '../../src/store/instance-clock.js';
import { SnapshotError } from '../../src/store/snapshots.js';
import { withProfile } from './helpers.js';

const api = (status: number, message = 'x', errors?: Record<string, string[]>) => new ApiError(status, message, 'GET', '/users', {}, errors, ['users.read.*']);

describe('exit codes', () => {
  it.each([
    [400, 6],
    [401, 3],
    [403, 3],
    [404, 4],
    [405, 1],
    [409, 5],
    [413, 1],
    [422, 6],
    [429, 7],
    [500, 1],
    [503, 1],
  ])('status %i → %i', (status, code) => expect(exitCodeFor(api(status))).toBe(code));

  it('maps the other error kinds', () => {
    expect(exitCodeFor(new NetworkError('timed out', 'GET', 'u', true))).toBe(8);
    expect(exitCodeFor(new UsageError('bad'))).toBe(2);
    expect(exitCodeFor(new CliError('x', 5))).toBe(5);
    expect(exitCodeFor(new TypeError('boom'))).toBe(1);
  });
});

describe('admin failures become exit codes and lines here, whichever store the command ran on', () => {
  const admin = new Command('confctl').command('admin');
  const links = admin.command('meeting-links');
  links.command('list');
  const schedule = links.command('schedule');

  it.each([
    ['not_found', 4],
    ['conflict', 5],
    ['invalid', 6],
  ] as const)('%s → %i', (kind, code) => expect(exitCodeFor(new AdminError(kind, 'x'))).toBe(code));

  it('a hint names the command that ran, or the list beside it', () => {
    expect(errorLines(new AdminError('not_found', 'no meeting link 9'), schedule)).toEqual([
      'error: no meeting link 9',
      "hint: 'confctl admin meeting-links list' lists what there is; --data, --database and --tenant choose the instance and tenant",
    ]);
    expect(errorLines(new AdminError('conflict', 'taken'), schedule)[1]).toBe("hint: the stored state does not allow this now; 'confctl admin meeting-links schedule --help' says what the command needs");
    expect(errorLines(new AdminError('invalid', 'bad'), schedule)[1]).toBe("hint: check the flags and values: 'confctl admin meeting-links schedule --help' shows what each takes");
  });

  it('a refused import lists every bad record before its error line, exit 6', () => {
    const err = new ImportError('users.ndjson', 'ndjson', 'line', [{ line: 2, errors: { email: ['The email must be a valid email address.'] } }]);
    expect(exitCodeFor(err)).toBe(6);
    expect(errorLines(err)).toEqual([
      '  users.ndjson:2: email: The email must be a valid email address.',
      'error: users.ndjson: 1 invalid line (line 2); nothing was imported.',
      'hint: fix the listed records and run the import again',
    ]);
  });
});

describe('refusals of the admin and store layers become exit codes and lines here, not in their commands', () => {
  it.each([
    ['a snapshot name in use', new SnapshotError('exists', "A snapshot named 'a' exists."), 5, ["error: A snapshot named 'a' exists.", 'hint: add --force to replace it, or pick another name']],
    [
      'a snapshot that is not there',
      new SnapshotError('not_found', "There is no snapshot named 'a'."),
      2,
      ["error: There is no snapshot named 'a'.", "hint: 'confctl admin snapshot list' shows the snapshots of this instance"],
    ],
    ['a bad snapshot name', new SnapshotError('invalid_name', 'bad name'), 2, ['error: bad name']],
    ['a snapshot of a newer schema', new SnapshotError('newer_schema', 'newer'), 2, ['error: newer']],
    ['a refused clock move', new ClockRefused('the clock never moves backwards'), 2, ['error: the clock never moves backwards']],
    ['a copy missing media files', new MediaMissing('2 of the 3 Finished recordings have no file in /m'), 2, ['error: 2 of the 3 Finished recordings have no file in /m']],
    ['a tenant domain in use', new DomainInUse(['a.example', 'b.example']), 5, ['error: domain already in use: a.example, b.example']],
  ] as const)('%s', (_what, err, code, lines) => {
    expect(exitCodeFor(err)).toBe(code);
    expect(errorLines(err)).toEqual(lines);
  });
});

describe('a store locked by another process', () => {
  /** The error SQLite itself throws when another connection holds the file's lock (a bulk seed writes so). */
  function lockedError(): unknown {
    const dir = mkdtempSync(join(tmpdir(), 'confctl-busy-'));
    const holder = new Database(join(dir, 'confctl.db'));
    const other = new Database(join(dir, 'confctl.db'), { timeout: 0 });
    try {
      holder.pragma('journal_mode = DELETE');
      holder.exec('CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)');
      return (() => {
        try {
          other.prepare('SELECT count(*) FROM t').get();
        } catch (err) {
          return err;
        }
        throw new Error('the read was not refused');
      })();
    } finally {
      other.close();
      holder.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('says the store is busy and nothing was written, exit 8 (not "unexpected", exit 1)', () => {
    const err = lockedError();
    expect((err as { code: string }).code).toBe('SQLITE_BUSY');
    expect(exitCodeFor(err)).toBe(8);
    expect(errorLines(err)).toEqual([BUSY_LINE, 'hint: run it again when that process has finished']);
    expect(BUSY_LINE).toMatch(/^error: the store is busy: .*nothing was written$/);
  });

  it('a PostgreSQL transaction rolled back for a race (40001, 40P01) reads the same', () => {
    for (const code of ['40001', '40P01']) {
      const err = Object.assign(new Error('could not serialize access'), { code });
      expect(exitCodeFor(err)).toBe(8);
      expect(errorLines(err)[0]).toBe(BUSY_LINE);
    }
  });
});

describe('error lines', () => {
  it('prints one line per field for validation errors', () => {
    const lines = errorLines(api(400, 'The email has already been taken.', { email: ['The email has already been taken.'] }));
    expect(lines).toEqual(['error: GET /users failed (400): The email has already been taken.', '  email: The email has already been taken.']);
  });
  it('a 400 on role keeps the message and says where the role names are (the API cannot list them)', () => {
    const lines = errorLines(api(400, 'The email has already been taken. (and 1 more error)', { email: ['The email has already been taken.'], role: ['The selected role is invalid.'] }));
    expect(lines).toEqual([
      'error: GET /users failed (400): The email has already been taken. (and 1 more error)',
      '  email: The email has already been taken.',
      '  role: The selected role is invalid.',
      "hint: roles are the tenant's own names and the API cannot list them; on a local instance 'confctl admin roles list' shows them",
    ]);
  });
  it('names the missing permission on Access denied.', () => {
    expect(errorLines(api(401, 'Access denied.'))[1]).toBe('hint: the access key lacks a permission this needs: users.read.*');
  });
});

describe('a base URL that is not an http(s) URL', () => {
  it.each([
    [['users', 'get', '1', '--base-url', 'not-a-url'], "error: bad base URL: 'not-a-url' is not a URL"],
    [['api', '/users', '--base-url', 'ftp://x/y'], "error: bad base URL: 'ftp://x/y' is not an http or https URL"],
  ])('%j is exit 2 with one line and a hint, before any request', async (args, line) => {
    const f = await withProfile();
    expect(await f.run(args)).toBe(2);
    expect(f.stderr()).toBe(`${line}\nhint: give --base-url like https://acme.example.com/api/public/v2.0, or a profile --domain\n`);
    f.agent.assertNoPendingInterceptors();
  });

  it('doctor fails the base URL row and exits 2', async () => {
    const f = await withProfile();
    expect(await f.run(['doctor', '--base-url', 'not-a-url', '-o', 'json'])).toBe(2);
    expect(JSON.parse(f.stdout())).toContainEqual({ check: 'base URL', status: 'fail', detail: "'not-a-url' is not a URL: give an http or https URL" });
  });
});

describe('a prompt cancelled with Ctrl-C', () => {
  it('exits 130 saying nothing was sent', async () => {
    const cancel = Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' });
    expect(exitCodeFor(cancel)).toBe(130);
    expect(errorLines(cancel)).toEqual(['cancelled; nothing was sent']);
  });
});

describe('a removed working directory', () => {
  it('is exit 2 saying so, not an unexpected error', () => {
    const err = Object.assign(new Error('ENOENT: no such file or directory, uv_cwd'), { code: 'ENOENT', syscall: 'uv_cwd' });
    expect(exitCodeFor(err)).toBe(2);
    expect(errorLines(err)).toEqual([
      'error: the working directory no longer exists, so a relative path (a --data DIR, say) cannot be found',
      'hint: cd to a directory that exists and run it again',
    ]);
    const missingFile = Object.assign(new Error('ENOENT: no such file or directory, open'), { code: 'ENOENT', syscall: 'open' });
    expect(exitCodeFor(missingFile)).toBe(1);
  });
});
