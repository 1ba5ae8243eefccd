/**
 * What a webhook destination may be (decisions §13): the event types it can ask for, and its URL:
 * `https://` anywhere, `http://` only for a loopback host (`localhost`, `*.localhost`,
 * 127.0.0.0/8, `::1`), since the hosted platform delivers only to HTTPS.
 */
import { isIP } from 'node:net';
import { AdminError } from '../admin/errors.js';

export const EVENT_TYPES = ['events.created', 'events.updated', 'events.deleted', 'events.rescheduled', 'meeting_links.scheduled'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

/** `--events T,…` as a list of known types without repeats; undefined (no filter) stays null. */
export function parseEventTypes(list: string | undefined): EventType[] | null {
  if (list === undefined) return null;
  const types = [...new Set(list.split(',').map((t) => t.trim()).filter((t) => t !== ''))];
  if (types.length === 0) throw new AdminError('invalid', `--events names no event type; the types are ${EVENT_TYPES.join(', ')}`);
  const unknown = types.filter((t) => !isEventType(t));
  if (unknown.length > 0) throw new AdminError('invalid', `unknown event type ${unknown.map((t) => `'${t}'`).join(', ')}; the types are ${EVENT_TYPES.join(', ')}`);
  return types as EventType[];
}

/** True for a host name or address that can only reach this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** The destination URL, normalised, or an `invalid` AdminError saying why it cannot be one. */
export function checkDestinationUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AdminError('invalid', `'${text}' is not a URL; give an absolute https:// URL`);
  }
  if (url.username || url.password) throw new AdminError('invalid', 'a destination URL must not carry a user name or password');
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url.href;
  if (url.protocol === 'http:') throw new AdminError('invalid', `http:// is allowed only for loopback hosts (localhost, 127.0.0.1, ::1), not '${url.hostname}'; use https://`);
  throw new AdminError('invalid', `a destination URL must be https:// (or http:// on a loopback host), not '${url.protocol}'`);
}

/** True when a destination with this filter receives events of `type`. */
export const wants = (events: readonly string[] | null, type: EventType): boolean => events === null || events.includes(type);
