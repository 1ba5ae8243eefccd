/** `confctl admin webhooks …`: registration only; the actions load when one runs. */
import type { Command } from 'commander';
import { TRIGGER_TYPES } from '../../../admin/trigger.js';
import { EVENT_TYPES } from '../../../webhooks/destinations.js';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { DATA, DATABASE, commonOptions, type OwnFlags } from './flags.js';
import type { SecretFlags, WebhooksAddOptions, WebhooksDeliveriesOptions, WebhooksTenantOptions } from './webhooks-run.js';

const run = () => import('./webhooks-run.js');

const SECRET = ['--secret <secret>', 'use this signing secret (e.g. the one webhooks listen printed) instead of making one'] as const;
const SECRET_FILE = ['--secret-file <file>', 'read the signing secret from the first line of this file'] as const;

export function register(admin: Command, ctx: CliContext): void {
  const webhooks = admin
    .command('webhooks')
    .description("A tenant's webhook destinations: where serve sends signed events (from a data directory or --database)")
    .addHelpText('after', examples('confctl admin webhooks list', 'CONFCTL_DATABASE_URL=postgres://confctl@db.internal/confctl confctl admin webhooks list'));
  webhooks
    .command('add <url>')
    .description('Add a destination; its signing secret is printed only now')
    .option(...DATA)
    .option(...DATABASE)
    .option('--tenant <domain>', 'tenant by primary or alias domain (default: the first tenant)')
    .option('--events <types>', `comma-separated event types to send (default: all of ${EVENT_TYPES.join(', ')})`)
    .option(...SECRET)
    .option(...SECRET_FILE)
    .addHelpText('after', '\nThe URL must be https://, or http:// on a loopback host (localhost, 127.0.0.1, ::1).\n')
    .addHelpText(
      'after',
      examples(
        'confctl admin webhooks add https://hooks.example.com/confctl --events events.created,events.deleted',
        'confctl admin webhooks add http://127.0.0.1:8090/ --secret-file ./webhook-secret',
        'CONFCTL_DATABASE_URL=postgres://confctl@db.internal/confctl confctl admin webhooks add https://hooks.example.com/confctl',
      ),
    )
    .action(async (url: string, flags: Omit<WebhooksAddOptions, 'url'>, cmd: Command) => (await run()).webhooksAdd({ url, ...flags, ...commonOptions(cmd) }, ctx));
  webhooks
    .command('list')
    .description('List destinations (never their secrets)')
    .option(...DATA)
    .option(...DATABASE)
    .option('--tenant <domain>', 'only the destinations of this tenant')
    .addHelpText('after', examples('confctl admin webhooks list --tenant localhost -o json'))
    .action(async (flags: OwnFlags<WebhooksTenantOptions>, cmd: Command) => (await run()).webhooksList({ ...flags, ...commonOptions(cmd) }, ctx));
  webhooks
    .command('remove <id>')
    .description('Remove a destination: nothing more is sent to it')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText('after', examples('confctl admin webhooks remove wh_0123456789abcdefghijklmn'))
    .action(async (id: string, _flags: unknown, cmd: Command) => (await run()).webhooksRemove({ id, ...commonOptions(cmd) }, ctx));
  webhooks
    .command('rotate-secret <id>')
    .description("Replace a destination's signing secret; the new one is printed only now")
    .option(...DATA)
    .option(...DATABASE)
    .option(...SECRET)
    .option(...SECRET_FILE)
    .addHelpText('after', examples('confctl admin webhooks rotate-secret wh_0123456789abcdefghijklmn'))
    .action(async (id: string, flags: SecretFlags, cmd: Command) => (await run()).webhooksRotateSecret({ id, ...flags, ...commonOptions(cmd) }, ctx));
  webhooks
    .command('deliveries')
    .description('List deliveries newest first, with their attempts (time, status code or error)')
    .option(...DATA)
    .option(...DATABASE)
    .option('--tenant <domain>', 'only the deliveries of this tenant')
    .option('--failed', 'only deliveries that failed all their attempts')
    .option('--limit <n>', 'at most this many (default 100)')
    .addHelpText('after', '\nFinished deliveries are kept 30 days, then serve deletes them.\n')
    .addHelpText('after', examples('confctl admin webhooks deliveries --failed', "confctl admin webhooks deliveries -o json | jq '.[0].attempts'"))
    .action(async (flags: OwnFlags<WebhooksDeliveriesOptions>, cmd: Command) => (await run()).webhooksDeliveries({ ...flags, ...commonOptions(cmd) }, ctx));
  webhooks
    .command('redeliver <id>')
    .description('Send a delivery again (same X-Webhook-Id, a new round of attempts); serve sends it')
    .option(...DATA)
    .option(...DATABASE)
    .addHelpText('after', examples('confctl admin webhooks redeliver 12'))
    .action(async (id: string, _flags: unknown, cmd: Command) => (await run()).webhooksRedeliver({ id, ...commonOptions(cmd) }, ctx));
  webhooks
    .command('trigger <type>')
    .description('Make a real change that sends TYPE, on a customer, calendar and event made for it')
    .option(...DATA)
    .option(...DATABASE)
    .option('--tenant <domain>', 'tenant by primary or alias domain (default: the first tenant)')
    .addHelpText(
      'after',
      `\nTypes: ${TRIGGER_TYPES.join(', ')}. Existing data is never touched; updating, rescheduling or\ndeleting the new event also sends events.created first.\n`,
    )
    .addHelpText('after', examples('confctl admin webhooks trigger events.rescheduled', 'confctl admin webhooks trigger events.created --tenant acme.test -o json'))
    .action(async (type: string, flags: OwnFlags<WebhooksTenantOptions>, cmd: Command) => (await run()).webhooksTrigger({ type, ...flags, ...commonOptions(cmd) }, ctx));
}
