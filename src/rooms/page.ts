/**
 * The join page of the local instance (decisions §11): `/rooms/{public_id}?token=…` shows the
 * conference title, the attendee's name and whether the conference is waiting, running or ended.
 * The page is static HTML: no script, no external resource; its one inline style is allowed by
 * hash in the Content-Security-Policy, which forbids everything else.
 */
import { createHash } from 'node:crypto';
import type { OnlineConference } from '../contract/resources.js';

/** The path prefix of join pages. */
export const ROOM_PATH_PREFIX = '/rooms/';

/** The join URL of a conference for a token; `origin` is `scheme://host[:port]`. */
export function roomUrl(origin: string, publicId: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${ROOM_PATH_PREFIX}${encodeURIComponent(publicId)}?token=${encodeURIComponent(token)}`;
}

export type ConferenceState = 'waiting' | 'running' | 'ended';

/** Waiting until it starts, running until it ends, then ended. */
export function conferenceState(conference: Pick<OnlineConference, 'started_at' | 'ended_at'>): ConferenceState {
  if (conference.ended_at !== null) return 'ended';
  return conference.started_at !== null ? 'running' : 'waiting';
}

const STATE_TEXT: Record<ConferenceState, string> = {
  waiting: 'The conference has not started yet.',
  running: 'The conference is running.',
  ended: 'The conference has ended.',
};

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

const STYLE =
  'body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f4f5f7;color:#1d2330}' +
  'main{background:#fff;padding:2rem 2.5rem;border-radius:8px;box-shadow:0 1px 4px #0002;max-width:36rem}' +
  'h1{margin-top:0;overflow-wrap:anywhere}.state{font-weight:600}';

/** The page's Content-Security-Policy: nothing but its own inline style. */
export const ROOM_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The join page for one attendee of one conference. */
export function renderRoomPage(conference: Pick<OnlineConference, 'title' | 'started_at' | 'ended_at'>, attendeeName: string): string {
  const title = escapeHtml(conference.title);
  const state = conferenceState(conference);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>Joining as <strong>${escapeHtml(attendeeName)}</strong>.</p>
<p class="state" data-state="${state}">${state}: ${STATE_TEXT[state]}</p>
</main>
</body>
</html>
`;
}
