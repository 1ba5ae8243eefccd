/** What `serve` and `webhooks listen` share about the address they listen on. */
import { API_PREFIX } from '../../contract/operations-meta.js';
import { CliError, EXIT } from '../errors.js';

/** The host part of a URL for a server bound to `host` (wildcard binds answer on localhost). */
export function urlHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
}

/** The API's base URL for a server bound to `host:port` (wildcard binds answer on localhost). */
export function baseUrlFor(host: string, port: number): string {
  return `http://${urlHost(host)}:${port}${API_PREFIX}`;
}

/** A readable error for a failed `listen` (port taken, address not ours, privileged port). */
export function listenError(err: NodeJS.ErrnoException, options: { host: string; port: number }): Error {
  const where = `${options.host}:${options.port}`;
  switch (err.code) {
    case 'EADDRINUSE':
      return new CliError(`cannot listen on ${where}: the port is already in use`, EXIT.unexpected, 'pick another with --port, or --port 0 for a free one');
    case 'EADDRNOTAVAIL':
      return new CliError(`cannot listen on ${where}: ${options.host} is not an address of this machine`, EXIT.unexpected, 'use --host 127.0.0.1, or 0.0.0.0 for every interface');
    case 'EACCES':
      return new CliError(`cannot listen on ${where}: permission denied`, EXIT.unexpected, 'ports below 1024 need privileges; use --port 8080');
    default:
      return err;
  }
}
