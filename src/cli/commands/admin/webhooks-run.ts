/**
 * `confctl admin webhooks add|list|remove|rotate-secret|deliveries|redeliver|trigger`: a tenant's webhook
 * destinations and what was sent to them (decisions §13). A destination's secret is printed once, when it is made or rotated; `list`
 * never shows it. Each works on the data directory or, with `--database`, on PostgreSQL (admin-store.ts), printing the same.
 */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import type { DeliveryRecord, WebhookDestinationRecord } from '../../../store/types.js';
import { checkDestinationUrl, parseEventTypes } from '../../../webhooks/destinations.js';
import { newSecret } from '../../../webhooks/secret.js';
import { CliError, EXIT } from '../../context.js';
import type { Row } from '../../output/index.js';
import type { DataStore } from '../../../store/port.js';
import { isPlainText, plan, print, printList, wholeNumber } from './local.js';
import { withStore } from './store.js';
import { secretFrom } from '../webhooks/secret.js';
import { trigger } from '../../../admin/trigger.js';

/** `--secret` or `--secret-file`: a destination's signing secret chosen on purpose. */
export type SecretFlags = { secret?: string; secretFile?: string };
export type WebhooksAddOptions = AdminCommon & SecretFlags & { url: string; tenant?: string; events?: string };
/** `--tenant`: only its destinations (list), or the tenant to change (trigger). */
export type WebhooksTenantOptions = AdminCommon & { tenant?: string };
export type WebhooksDeliveriesOptions = AdminCommon & { tenant?: string; failed?: boolean; limit?: string };
export type WebhooksIdOptions = AdminCommon & { id: string };
export type WebhooksRotateOptions = AdminCommon & SecretFlags & { id: string };
export type WebhooksTriggerOptions = AdminCommon & { type: string; tenant?: string };

const destinationRow = (d: WebhookDestinationRecord, tenants: Map<number, string>): Row => ({
  id: d.id,
  tenant: tenants.get(d.tenant_id) ?? null,
  url: d.url,
  events: d.events ?? 'all',
  created_at: d.created_at,
  secret_rotated_at: d.secret_rotated_at,
});

const notFound = (id: string) => new CliError(`no webhook destination '${id}'`, EXIT.notFound, "see 'confctl admin webhooks list'");

/**
 * `--secret` or `--secret-file` pairs the destination with a listener that already has a secret;
 * without either a new one is made (`made`), and only such a one is printed: a given secret is
 * never echoed. `CONFCTL_WEBHOOK_SECRET` is not read: a destination's secret is chosen on
 * purpose, never picked up from the environment.
 */
function chosenSecret(flags: SecretFlags): { secret: string; made: boolean } {
  const given = secretFrom(flags, {}).secret;
  return given === undefined ? { secret: newSecret(), made: true } : { secret: given, made: false };
}

/** The `Secret:` line of the plain output: the secret confctl made, else that the given one is used. */
const secretLine = ({ secret, made }: { secret: string; made: boolean }) => (made ? `Secret: ${secret}   (shown only now)` : 'Secret: the one given (not shown)');

/** `{secret}` for the printed row when confctl made it; nothing for a given one. */
const secretField = ({ secret, made }: { secret: string; made: boolean }) => (made ? { secret } : {});

/** Tenant ids and their primary domains, for the `tenant` column. */
const tenantNames = async (store: DataStore) => new Map((await store.tenants.list()).map((t) => [t.id, t.primary_domain]));

export async function webhooksAdd(options: WebhooksAddOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const target = checkDestinationUrl(options.url);
    const events = parseEventTypes(options.events);
    const chosen = chosenSecret(options);
    const tenant = await tenantOf(options);
    const types = events ? events.join(', ') : 'every event type';
    if (options.globals.dryRun) return plan(ctx, [`would add webhook destination ${target} for tenant ${tenant.primary_domain}, receiving ${types}`]);
    const record = await store.webhookDestinations.create({ tenant_id: tenant.id, url: target, events, secret: chosen.secret });
    if (isPlainText(ctx, options.globals)) {
      ctx.streams.stdout.write(`Added webhook destination ${record.id} for ${tenant.primary_domain}\nURL: ${record.url}\nEvents: ${types}\n${secretLine(chosen)}\n`);
    } else await print(ctx, options.globals, { ...destinationRow(record, new Map([[tenant.id, tenant.primary_domain]])), ...secretField(chosen) });
  });
}

export async function webhooksList(options: WebhooksTenantOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, false, async ({ store, tenantOf }) => {
    const tenants = await tenantNames(store);
    const tenantId = options.tenant ? (await tenantOf(options)).id : undefined;
    const rows = (await store.webhookDestinations.list(tenantId)).map((d) => destinationRow(d, tenants));
    await printList(ctx, options.globals, rows, ['id', 'tenant', 'url', 'events', 'created_at', 'secret_rotated_at']);
  });
}

export async function webhooksRemove(options: WebhooksIdOptions, ctx: CliContext): Promise<void> {
  const { id } = options;
  await withStore(ctx, options.store, true, async ({ store }) => {
    const destination = await store.webhookDestinations.get(id);
    if (!destination) throw notFound(id);
    if (options.globals.dryRun) return plan(ctx, [`would remove webhook destination ${id} (${destination.url})`]);
    if (!(await store.webhookDestinations.remove(id))) throw notFound(id);
    await print(ctx, options.globals, { ...destinationRow(destination, await tenantNames(store)), removed: true });
  });
}

/** A new secret replaces the old one at once: deliveries from now on are signed with it. */
export async function webhooksRotateSecret(options: WebhooksRotateOptions, ctx: CliContext): Promise<void> {
  const { id } = options;
  await withStore(ctx, options.store, true, async ({ store }) => {
    const destination = await store.webhookDestinations.get(id);
    if (!destination) throw notFound(id);
    const chosen = chosenSecret(options);
    if (options.globals.dryRun) return plan(ctx, [`would replace the secret of webhook destination ${id} (${destination.url})`]);
    if (!(await store.webhookDestinations.rotateSecret(id, chosen.secret))) throw notFound(id);
    if (isPlainText(ctx, options.globals)) {
      ctx.streams.stdout.write(`Rotated the secret of webhook destination ${id}\n${secretLine(chosen)}\n`);
    } else await print(ctx, options.globals, { id, url: destination.url, ...secretField(chosen) });
  });
}

const deliveryRow = (d: DeliveryRecord, tenants: Map<number, string>): Row => {
  const last = d.attempts[d.attempts.length - 1];
  return {
    id: d.id,
    created_at: d.created_at,
    tenant: tenants.get(d.tenant_id) ?? null,
    type: d.type,
    event_id: d.event_id,
    destination_id: d.destination_id,
    url: d.url,
    status: d.status,
    attempts: d.attempts,
    last_result: last ? (last.status_code ?? last.error) : null,
    next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
  };
};

/** Newest first, with every attempt (time, status code or error); `--failed` keeps failed ones. */
export async function webhooksDeliveries(options: WebhooksDeliveriesOptions, ctx: CliContext): Promise<void> {
  await withStore(ctx, options.store, false, async ({ store, tenantOf }) => {
    const tenants = await tenantNames(store);
    const tenantId = options.tenant ? (await tenantOf(options)).id : undefined;
    const limit = options.limit === undefined ? 100 : wholeNumber('--limit', options.limit);
    const rows = (await store.webhookOutbox.list({ tenantId, failed: Boolean(options.failed), limit })).map((d) => deliveryRow(d, tenants));
    await printList(ctx, options.globals, rows, ['id', 'created_at', 'tenant', 'type', 'url', 'status', 'last_result', 'next_attempt_at']);
  });
}

/** Sends a delivery again, due now, with the same X-Webhook-Id and a new round of five attempts. */
export async function webhooksRedeliver(options: WebhooksIdOptions, ctx: CliContext): Promise<void> {
  const { id } = options;
  await withStore(ctx, options.store, true, async ({ store }) => {
    const deliveryId = wholeNumber('delivery id', id);
    const delivery = await store.webhookOutbox.get(deliveryId);
    if (!delivery) throw new CliError(`no webhook delivery ${deliveryId}`, EXIT.notFound, "see 'confctl admin webhooks deliveries'");
    if (!(await store.webhookDestinations.get(delivery.destination_id))) {
      throw new CliError(`webhook delivery ${deliveryId} went to a destination that was removed`, EXIT.conflict, "add the destination again with 'confctl admin webhooks add'");
    }
    if (options.globals.dryRun) return plan(ctx, [`would send ${delivery.type} ${delivery.event_id} to ${delivery.url} again (delivery ${deliveryId}, now ${delivery.status})`]);
    await store.webhookOutbox.redeliver(deliveryId);
    await print(ctx, options.globals, deliveryRow((await store.webhookOutbox.get(deliveryId))!, await tenantNames(store)));
  });
}

/** A real change of TYPE on data made for it; `serve` delivers the events it queued. */
export async function webhooksTrigger(options: WebhooksTriggerOptions, ctx: CliContext): Promise<void> {
  const { type } = options;
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const tenant = await tenantOf(options);
    if (options.globals.dryRun) return plan(ctx, [`would create a customer, a calendar and an event in tenant ${tenant.primary_domain} and make a change sending ${type}`]);
    const result = await trigger(store, tenant.id, type, ctx.now());
    const destinations = (await store.webhookDestinations.list(tenant.id)).length;
    const { emitted, ...made } = result;
    await print(ctx, options.globals, { tenant: tenant.primary_domain, ...made, webhook_events: emitted, destinations });
  });
}
