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

const COLUMNS: [keyof Received, number][] = [
  ['timestamp', 24],
  ['status', 6],
  ['event', 24],
  ['id', 38],
];

/** The heading printed once before the first table row. */
export function tableHeading(): string {
  return `${COLUMNS.map(([name, width]) => name.toUpperCase().padEnd(width)).join(' ')} DATA\n`;
}

/** One table row; the data as compact JSON, cut with `…` to the terminal's width. */
export function tableRow(r: Received, width: number): string {
  const fixed = COLUMNS.map(([name, w]) => String(r[name] ?? '-').padEnd(w)).join(' ');
  const data = r.data === null ? '-' : JSON.stringify(r.data);
  const room = Math.max(10, width - fixed.length - 1);
  return `${fixed} ${data.length > room ? `${data.slice(0, room - 1)}…` : data}\n`;
}

/** One NDJSON line. */
export function ndjsonLine(r: Received): string {
  return `${JSON.stringify(r)}\n`;
}
