/**
 * `profile add --domain`'s probe: a domain with a port, or a loopback host, is where a plain-http
 * server (a local `confctl serve`) is likely, so a TLS handshake is tried there (nothing is sent
 * but the handshake, at most two seconds). A host that answers it in plain http is reported;
 * anything else (no answer, a certificate problem) is left for the commands to report.
 */
import { connect } from 'node:tls';
import { isLoopbackHost, tlsToPlainHttp } from '../../../client/errors.js';

const PROBE_MS = 2000;

/** Whether `domain` (host, maybe with a port) is worth probing: a port given, or this machine. */
export function worthProbing(domain: string): boolean {
  try {
    const url = new URL(`https://${domain}`);
    return url.port !== '' || isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** True when `domain` answers a TLS handshake in plain http. */
export function answersPlainHttp(domain: string): Promise<boolean> {
  const url = new URL(`https://${domain}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(url.port || 443), servername: /^[\d.:]+$/.test(host) ? undefined : host, rejectUnauthorized: false });
    const finish = (plain: boolean) => {
      socket.destroy();
      resolve(plain);
    };
    socket.setTimeout(PROBE_MS, () => finish(false));
    socket.once('secureConnect', () => finish(false));
    socket.once('error', (err) => finish(tlsToPlainHttp(err)));
  });
}
