import type { Command } from 'commander';
import { ALL_PERMISSIONS } from '../../../contract/operations-meta.js';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { FORCE_FLAG } from '../../overwrite.js';
import { registerBackup } from './backup.js';
import { registerClock } from './clock.js';
import { registerCopy } from './copy.js';
import { registerEvents } from './events-register.js';
import { registerFaults } from './faults.js';
import { registerMeetingLinks } from './meeting-links-register.js';
import { registerSnapshots } from './snapshot.js';
import { registerWebhooks } from './webhooks-register.js';

type Actions = typeof import('./run.js');
/** Loads the heavy action module (store, better-sqlite3) only when an admin command runs. */
const run = <A extends unknown[]>(ctx: CliContext, pick: (m: Actions) => (ctx: CliContext, cmd: Command, ...args: A) => Promise<void>) =>
  async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const positional = args.slice(0, -2) as A;
    await pick(await import('./run.js'))(ctx, cmd, ...positional);
  };

const DATA = ['--data <dir>', 'data directory (default: CONFCTL_DATA, else ~/.local/share/confctl)'] as const;
/** For the commands that write recording files. */
const MEDIA = ['--media <dir>', "recording files' directory (default: CONFCTL_MEDIA_DIR, else the data directory's media/)"] as const;
const TENANT = ['--tenant <domain>', 'tenant by primary or alias domain (default: the first tenant)'] as const;
/** For the commands that work on a PostgreSQL database instead (see admin-store.ts, admin-database.ts). */
const DATABASE = ['--database <url>', 'work on this PostgreSQL database instead of a data directory (default: CONFCTL_DATABASE_URL, unless --data is given)'] as const;
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `confctl admin …`: administration of a data directory, or with `--database` a PostgreSQL database; no server needed. */
export function register(program: Command, ctx: CliContext): void {
  const admin = program
    .command('admin')
    .description("Administer a local data directory, or a PostgreSQL database with --database (tenants, keys, demo data, the provider's side)")
    .addHelpText('after', examples('confctl admin init --data ./data -o json', 'confctl admin keys create --tenant localhost --name ci --permissions "users.read.*,customers.*"'));

  admin
    .command('init')
    .description('Create the database, the first tenant (roles Admin, Manager, Member) and an all-permissions key')
    .option(...DATA)
    .option(...DATABASE)
    .option('--domain <domain>', 'primary domain of the first tenant', 'localhost')
    .option('--no-profile', "do not save the key as a client profile")
    .option('--profile-name <name>', "save the key as this profile instead of 'local'")
    .option(...FORCE_FLAG)
    .addHelpText(
      'after',
      `
A profile of that name that points elsewhere is replaced only with consent: asked on a terminal,
else --force (or pick another name with --profile-name). This is checked before the key exists.
${examples('confctl admin init --data ./data -o json   # {"tenant": "...", "key_id": "...", "secret": "..."}', 'confctl admin init --data ./other --profile-name other --dry-run')}`,
    )
    .action(run(ctx, (m) => m.init));

  const tenants = admin.command('tenants').description('Manage tenants').addHelpText('after', examples('confctl admin tenants list'));
  tenants
    .command('add <domain>')
    .description('Add a tenant with the default roles')
    .option(...DATA)
    .option(...DATABASE)
    .option('--alias <domain>', 'an alias domain (repeatable)', collect)
    .addHelpText('after', examples('confctl admin tenants add acme.test --alias www.acme.test', 'CONFCTL_DATABASE_URL=postgres://confctl@db.internal/confctl confctl admin tenants add acme.test'))
    .action(run(ctx, (m) => m.tenantsAdd));
  tenants
    .command('list')
    .description('List tenants with their domains')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText('after', examples('confctl admin tenants list -o json', 'confctl admin tenants list --database postgres://confctl@localhost/confctl'))
    .action(run(ctx, (m) => m.tenantsList));

  const keys = admin.command('keys').description('Manage access keys').addHelpText('after', examples('confctl admin keys list'));
  keys
    .command('create')
    .description('Create an access key; its secret is printed only now')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .requiredOption('--name <name>', 'what the key is for')
    .requiredOption('--permissions <list>', "comma-separated grants, e.g. '*' or 'users.read.*,customers.*'")
    .option('--expires <date>', 'ISO 8601 date or date-time after which the key stops working')
    .addHelpText('after', `\nPermissions: ${ALL_PERMISSIONS.join(', ')}\n(users.lock.* lets users create activate a user; wildcards: '*', 'users.*', '*.read.*')\n`)
    .addHelpText(
      'after',
      examples(
        'confctl admin keys create --tenant localhost --name reporting --permissions "users.read.*" --expires 2027-01-01 -o json',
        'CONFCTL_DATABASE_URL=postgres://confctl@db.internal/confctl confctl admin keys create --name ci --permissions "*"',
      ),
    )
    .action(run(ctx, (m) => m.keysCreate));
  keys
    .command('list')
    .description('List access keys (never their secrets)')
    .option(...DATA)
    .option(...DATABASE)
    .option('--tenant <domain>', 'only the keys of this tenant')
    .addHelpText('after', examples('confctl admin keys list --tenant localhost', 'confctl admin keys list --database postgres://confctl@localhost/confctl'))
    .action(run(ctx, (m) => m.keysList));
  keys
    .command('revoke <id>')
    .description('Revoke an access key (a running serve refuses it from its next request on)')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText(
      'after',
      examples('confctl admin keys revoke ak_0123456789abcdefghijklmn', 'CONFCTL_DATABASE_URL=postgres://confctl@db.internal/confctl confctl admin keys revoke ak_0123456789abcdefghijklmn'),
    )
    .action(run(ctx, (m) => m.keysRevoke));

  const roles = admin.command('roles').description("A tenant's roles (the names a user's role may take)").addHelpText('after', examples('confctl admin roles list'));
  roles
    .command('list')
    .description("List a tenant's roles")
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin roles list --tenant localhost -o json'))
    .action(run(ctx, (m) => m.rolesList));

  const departments = admin.command('departments').description("A tenant's departments (the ids a user's department_id may take)").addHelpText('after', examples('confctl admin departments list'));
  departments
    .command('list')
    .description("List a tenant's departments")
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin departments list -o json'))
    .action(run(ctx, (m) => m.departmentsList));

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
    .action(run(ctx, (m) => m.invitationsList));

  admin
    .command('seed')
    .description('Fill a tenant with the demo data set, or with N deterministic users and customers')
    .option(...DATA)
    .option(...DATABASE)
    .option(...MEDIA)
    .option(...TENANT)
    .option('--demo', 'the demo data set (departments, users, customers, conferences, recordings in every status)')
    .option('--users <n>', 'number of generated users')
    .option('--customers <n>', 'number of generated customers')
    .addHelpText('after', examples('confctl admin seed --demo', 'confctl admin seed --users 100000 --customers 100000'))
    .action(run(ctx, (m) => m.seed));

  const conferences = admin.command('conferences').description("Drive a conference's life (the provider's side)").addHelpText('after', examples('confctl admin conferences start 3'));
  for (const [name, summary] of [
    ['start', 'Start a conference: sets started_at and begins a recording (status Recording)'],
    ['end', 'End a started conference: sets ended_at; its running recordings become Processing'],
  ] as const) {
    conferences
      .command(`${name} <id>`)
      .description(summary)
      .option(...DATA)
      .option(...DATABASE)
      .option(...TENANT)
      .addHelpText('after', examples(`confctl admin conferences ${name} 3`))
      .action(run(ctx, (m) => (name === 'start' ? m.conferenceStart : m.conferenceEnd)));
  }

  const recordings = admin.command('recordings').description("Finish or fail recordings (the provider's side)").addHelpText('after', examples('confctl admin recordings finish 5 --file ./talk.wav'));
  recordings
    .command('finish <id>')
    .description('Mark a recording Finished and store its media file (a generated WAV without --file)')
    .option(...DATA)
    .option(...DATABASE)
    .option(...MEDIA)
    .option(...TENANT)
    .option('--file <path>', 'media file to copy into the media directory')
    .addHelpText('after', examples('confctl admin recordings finish 5 --file ./talk.wav', 'confctl admin recordings finish 5 --media /srv/confctl-media   # a media volume shared by instances'))
    .action(run(ctx, (m) => m.recordingFinish));
  recordings
    .command('fail <id>')
    .description('Mark a recording Failed')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin recordings fail 5'))
    .action(run(ctx, (m) => m.recordingFail));

  admin
    .command('import <kind> <file>')
    .description('Import users, departments, customers, conference-accounts, connected-accounts, calendars or events from a JSON array or NDJSON file, all or nothing')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin import users users.ndjson', 'confctl admin import customers customers.json --tenant acme.test'))
    .action(run(ctx, (m) => m.importFile));

  registerBackup(admin, ctx);
  registerClock(admin, ctx);
  registerCopy(admin, ctx);
  registerSnapshots(admin, ctx);
  registerEvents(admin, ctx);
  registerFaults(admin, ctx);
  registerMeetingLinks(admin, ctx);
  registerWebhooks(admin, ctx);
}
