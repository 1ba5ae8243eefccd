import { defaultMaxConnectionsPerAddress, type ServerOptions } from '../../../server/options.js';
import { UsageError } from '../../context.js';

/** The server's timeouts and connection caps as `serve` flags set them. */
export type ConnectionFlags = Required<Pick<ServerOptions, 'maxConnections' | 'maxConnectionsPerAddress'>> & {
  timeouts: { headersMs: number; requestMs: number };
};

function count(flag: string, value: string, orElse = ''): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a whole number of at least 1${orElse}, not '${value}'`);
  return Number(value);
}

/** Those flags as commander hands them over. */
export interface ConnectionFlagValues {
  headersTimeout?: string;
  requestTimeout?: string;
  maxConnections?: string;
  maxConnectionsPerAddress?: string;
  trustProxy?: boolean;
}

/**
 * `--headers-timeout`, `--request-timeout`, `--max-connections`, `--max-connections-per-address`
 * (a number or `off`; by default 100, or off with `--trust-proxy`): flags → options, no I/O.
 */
export function parseConnectionFlags(o: ConnectionFlagValues): ConnectionFlags {
  const headers = count('--headers-timeout', o.headersTimeout ?? '20');
  const request = count('--request-timeout', o.requestTimeout ?? '30');
  if (headers > request) throw new UsageError(`--headers-timeout (${headers} s) must not be longer than --request-timeout (${request} s)`);
  const perAddress = o.maxConnectionsPerAddress;
  return {
    timeouts: { headersMs: headers * 1000, requestMs: request * 1000 },
    maxConnections: count('--max-connections', o.maxConnections ?? '500'),
    maxConnectionsPerAddress:
      perAddress === undefined ? defaultMaxConnectionsPerAddress(o.trustProxy === true)
      : perAddress === 'off' ? null
      : count('--max-connections-per-address', perAddress, " or 'off'"),
  };
}
