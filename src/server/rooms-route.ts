import type { IncomingMessage, ServerResponse } from 'node:http';
import { MESSAGES } from '../contract/index.js';
import { verifyJoinToken } from '../media/join-token.js';
import { renderRoomPage, ROOM_CSP, ROOM_PATH_PREFIX } from '../rooms/page.js';
import type { TenantRecord } from '../store/types.js';
import type { ResolvedOptions } from './options.js';
import { createSideRoute } from './side-route.js';

/** True for a request path under the join pages' prefix (query string ignored). */
export function isRoomPath(url: string): boolean {
  return url.startsWith(ROOM_PATH_PREFIX);
}

/** Headers of every answer of the route: the token is in the URL, so nothing is cached or referred. */
const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' };

function send(res: ServerResponse, status: number, type: string, text: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, { ...COMMON_HEADERS, ...headers, 'Content-Type': `${type}; charset=utf-8`, 'Content-Length': body.length });
  res.end(res.req?.method === 'HEAD' ? undefined : body);
}

/** The `{public_id}` of `/rooms/{public_id}`, decoded; undefined for another path shape. */
function parsePublicId(pathname: string): string | undefined {
  const m = /^\/rooms\/([^/]+)$/.exec(pathname);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
}

/**
 * The join page `GET|HEAD /rooms/{public_id}?token=…` (decisions §11), beside the JSON pipeline
 * like the recording links (see side-route.ts). Order of checks: method (405) → Host tenant
 * (404 `Unknown tenant.`) → path shape (404) → token (403 `Invalid token.`, plain text like the
 * links' 403). The token must be signed for this tenant, unexpired, name this path's conference
 * (not deleted) and a non-deleted attendee of it; any failure is the same 403, so the page tells
 * nothing about what exists. Success is the HTML page (see rooms/page.ts), never cached.
 */
export function createRoomsRoute(options: ResolvedOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { store, signingSecret } = options;
  const page = async (req: IncomingMessage, res: ServerResponse, tenant: TenantRecord | undefined): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return send(res, 405, 'text/plain', MESSAGES.methodNotAllowed, { Allow: 'GET, HEAD' });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const publicId = parsePublicId(url.pathname);
    if (!tenant || publicId === undefined) return send(res, 404, 'text/plain', MESSAGES.notFound);
    const grant = verifyJoinToken(url.searchParams.get('token'), tenant.id, options.clock.now(), signingSecret);
    const conference = grant ? await store.conferences.get(tenant.id, grant.conferenceId) : undefined;
    const attendee = conference?.public_id === publicId ? await store.attendees.get(conference.id, grant!.attendeeId) : undefined;
    if (!conference || !attendee) return send(res, 403, 'text/plain', MESSAGES.invalidToken);
    send(res, 200, 'text/html', renderRoomPage(conference, attendee.name), { 'Content-Security-Policy': ROOM_CSP });
  };
  return createSideRoute(options, (req, res, tenant) =>
    page(req, res, tenant).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain', MESSAGES.unexpected);
      else res.destroy();
    }),
  );
}
