import type { IncomingMessage, ServerResponse } from 'node:http';
import { RECORDING_PATH_PREFIX, serveRecording, storeFileResolver } from '../media/serve-recording.js';
import type { ResolvedOptions } from './options.js';
import { createSideRoute } from './side-route.js';

/** True for a request path under the recording links' prefix (query string ignored). */
export function isMediaPath(url: string): boolean {
  return url.startsWith(RECORDING_PATH_PREFIX);
}

/**
 * The recording-link route `GET|HEAD /media/recordings/{id}/{file_name}?expires=&signature=`
 * (decisions §7). It is not an API operation: the signature authorises (see side-route.ts for
 * what it shares with the join pages). It streams, so it runs on the node:http objects beside the
 * JSON pipeline (`createServer` sends it here first), and serves only the Host tenant's
 * recordings. Not available through the in-process `request()` runner.
 */
export function createMediaRoute(options: ResolvedOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { store, mediaDir, signingSecret } = options;
  return createSideRoute(options, (req, res, tenant) => {
    void serveRecording(req, res, {
      mediaDir,
      secret: signingSecret,
      now: () => options.clock.now(),
      resolveFile: tenant ? storeFileResolver(store, tenant.id) : () => undefined,
      isRevoked: (recordingId) => tenant !== undefined && store.recordings.revoked(tenant.id, recordingId),
    });
  });
}
