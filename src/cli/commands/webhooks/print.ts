/**
 * How `listen` prints an accepted delivery: one JSON line in a pipe (NDJSON), or one aligned row
 * under a heading on a terminal, so a long-running listener streams.
 */

/** An accepted delivery as printed. `event` and `data` are null when the body is not an event object. */
export interface Received {
  id: string;
  timestamp: string;
  event: string | null;
  data: unknown;
  /** The status the listener answered (the forward target's, with --forward-to). */
  status: number;
}

/** The event type and data of a body `{"event": TYPE, "data": {...}}`, else nulls. */
export function eventOf(body: Buffer): Pick<Received, 'event' | 'data'> {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (parsed && typeof parsed === 'object' && typeof (parsed as { event?: unknown }).event === 'string') {
      return { event: (parsed as { event: string }).event, data: (parsed as { data?: unknown }).data ?? null };
    }
  } catch {
    // Not JSON: authentic all the same; printed without type and data.
  }
  return { event: null, data: null };
}

const two = (n: number) => String(n).padStart(2, '0');

/** The signing time on this machine's clock face, `HH:MM:SS`: a listener shows what just arrived. */
function localTime(timestamp: string): string {
  const d = new Date(timestamp);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** Heading and width of each column before DATA; widths fit a UUID id and the longest type. */
const COLUMNS: [string, number, (r: Received) => string][] = [
  ['TIME', 8, (r) => localTime(r.timestamp)],
  ['STATUS', 6, (r) => String(r.status)],
  ['EVENT', 23, (r) => r.event ?? '-'],
  ['ID', 36, (r) => r.id],
];

/** The heading printed once before the first table row. */
export function tableHeading(): string {
  return `${COLUMNS.map(([name, width]) => name.padEnd(width)).join(' ')} DATA\n`;
}

/** One table row; the data as compact JSON, cut with `…` to `width` when the terminal's width is known. */
export function tableRow(r: Received, width?: number): string {
  const fixed = COLUMNS.map(([, w, text]) => text(r).padEnd(w)).join(' ');
  const data = r.data === null ? '-' : JSON.stringify(r.data);
  const room = width === undefined ? Infinity : Math.max(10, width - fixed.length - 1);
  return `${fixed} ${data.length > room ? `${data.slice(0, room - 1)}…` : data}\n`;
}

/** One NDJSON line. */
export function ndjsonLine(r: Received): string {
  return `${JSON.stringify(r)}\n`;
}
