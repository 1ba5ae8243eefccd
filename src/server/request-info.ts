import type { IncomingHttpHeaders } from 'node:http';

/** First value of a header that may repeat or carry a comma-separated list. */
export function firstHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  const comma = value.indexOf(',');
  return (comma === -1 ? value : value.slice(0, comma)).trim();
}

/** A header's single value (the first if repeated), untrimmed. */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  return Array.isArray(raw) ? raw[0] : raw;
}

/**
 * The Host of the request as sent (port kept, for absolute URLs): `X-Forwarded-Host` only when
 * the proxy is trusted (decisions §4), else `Host`.
 */
export function requestHost(headers: IncomingHttpHeaders, trustProxy: boolean): string {
  return (trustProxy ? firstHeader(headers, 'x-forwarded-host') : undefined) || header(headers, 'host') || '';
}

/** The tenant lookup name of a Host: port dropped, brackets of an IPv6 literal removed, lower case. */
export function hostName(host: string): string {
  let name = host;
  if (name.startsWith('[')) {
    const end = name.indexOf(']');
    name = end === -1 ? name.slice(1) : name.slice(1, end);
  } else {
    const colon = name.indexOf(':');
    if (colon !== -1 && colon === name.lastIndexOf(':')) name = name.slice(0, colon);
  }
  return name.toLowerCase();
}

/** `https` only behind a trusted proxy that says so, else `http`. */
export function requestScheme(headers: IncomingHttpHeaders, trustProxy: boolean): 'http' | 'https' {
  return trustProxy && firstHeader(headers, 'x-forwarded-proto')?.toLowerCase() === 'https' ? 'https' : 'http';
}

/** The client's address: the nearest `X-Forwarded-For` entry behind a trusted proxy, else the socket's. */
export function clientAddress(headers: IncomingHttpHeaders, remoteAddress: string, trustProxy: boolean): string {
  if (!trustProxy) return remoteAddress;
  const forwarded = header(headers, 'x-forwarded-for');
  const last = forwarded?.split(',').pop()?.trim();
  return last || remoteAddress;
}

const PRINTABLE = /^[\x20-\x7e]{1,200}$/;

/** The request's `X-Request-ID` when it is 1–200 printable ASCII characters, else undefined. */
export function validRequestId(headers: IncomingHttpHeaders): string | undefined {
  const id = header(headers, 'x-request-id');
  return id !== undefined && PRINTABLE.test(id) ? id : undefined;
}
