import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MESSAGES } from '../contract/index.js';
import { RECORDING_PATH_PREFIX, serveRecording, storeFileResolver } from '../media/serve-recording.js';
import { createLogger } from './access-log.js';
import type { ResolvedOptions } from './options.js';
import { hostName, requestHost, validRequestId } from './request-info.js';

/** True for a request path under the recording links' prefix (query string ignored). */
export function isMediaPath(url: string): boolean {
  return url.startsWith(RECORDING_PATH_PREFIX);
}

/**
 * The recording-link route `GET|HEAD /media/recordings/{id}/{file_name}?expires=&signature=`
 * (decisions §7). It is not an API operation: no key, no rate limit; the signature authorises.
 * It streams, so it runs on the node:http objects beside the JSON pipeline (`createServer`
 * sends it here first). Like the API it answers `X-Process-ID`/`X-Request-ID`, resolves the
 * tenant by Host (404 `Unknown tenant.`; another method is 405 first) and serves only that
 * tenant's recordings. Each request is access-logged when the response ends (the logger masks
 * `signature`). Not available through the in-process `request()` runner.
 */
export function createMediaRoute(options: ResolvedOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const logger = createLogger(options.log, options.logStream);
  const { store, trustProxy, mediaDir, signingSecret } = options;
  return (req, res) => {
    const started = performance.now();
    const requestId = validRequestId(req.headers) ?? randomUUID();
    res.setHeader('X-Process-ID', randomUUID());
    res.setHeader('X-Request-ID', requestId);
    res.once('close', () =>
      logger.access({
        time: new Date(options.now()).toISOString(),
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        status: res.statusCode,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        key_id: null,
        request_id: requestId,
      }),
    );
    const method = req.method ?? 'GET';
    const tenant = store.tenants.byDomain(hostName(requestHost(req.headers, trustProxy)));
    if (!tenant && (method === 'GET' || method === 'HEAD')) {
      const body = Buffer.from(MESSAGES.unknownTenant, 'utf8');
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length });
      res.end(method === 'HEAD' ? undefined : body);
      return;
    }
    void serveRecording(req, res, {
      mediaDir,
      secret: signingSecret,
      now: () => new Date(options.now()),
      resolveFile: tenant ? storeFileResolver(store, tenant.id) : () => undefined,
      isRevoked: (recordingId) => tenant !== undefined && store.recordings.revoked(tenant.id, recordingId),
    });
  };
}
