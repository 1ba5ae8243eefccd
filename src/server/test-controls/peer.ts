import { isIPv4 } from 'node:net';

/**
 * Whether a socket's peer address is loopback: 127.0.0.0/8, `::1`, or 127.0.0.0/8 written as an
 * IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, as a dual-stack socket reports it). Only the
 * socket's own address counts: forwarding headers are never read here.
 */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const lower = address.toLowerCase();
  if (lower === '::1' || lower === '0:0:0:0:0:0:0:1') return true;
  const v4 = lower.startsWith('::ffff:') ? lower.slice('::ffff:'.length) : lower;
  return isIPv4(v4) && v4.startsWith('127.');
}
