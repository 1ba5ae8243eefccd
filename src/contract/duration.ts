/**
 * Durations as the command line and the test-control routes write them: a non-negative number
 * with a unit, `ms`, `s`, `m` or `h` (and `d` where a caller allows days, as `mirror --since`
 * does); a bare number is seconds. `1.5s`, `250ms`, `10m`, `2h`, `30` (= 30 s).
 */

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
export type DurationUnit = keyof typeof UNIT_MS;

/** The units every duration takes; `d` only where a caller asks for it. */
export const DURATION_UNITS: readonly DurationUnit[] = ['ms', 's', 'm', 'h'];

const PATTERN = /^(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h|d)?$/;

/** What a duration looks like, for error messages: `a number with ms, s, m or h (a bare number is seconds)`. */
export function durationSyntax(units: readonly DurationUnit[] = DURATION_UNITS): string {
  const list = units.length > 1 ? `${units.slice(0, -1).join(', ')} or ${units[units.length - 1]}` : units[0];
  return `a number with ${list} (a bare number is seconds)`;
}

/**
 * Milliseconds of `text` (rounded to whole milliseconds), or undefined when it is not a
 * duration in `units`: empty, negative, another unit, spaces, or too large to be exact.
 */
export function parseDuration(text: string, units: readonly DurationUnit[] = DURATION_UNITS): number | undefined {
  const m = PATTERN.exec(text.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? 's') as DurationUnit;
  if (m[2] !== undefined && !units.includes(unit)) return undefined;
  const ms = Math.round(Number(m[1]) * UNIT_MS[unit]);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** A short reading of `ms` for messages and progress lines: `250ms`, `5s`, `1m30s`, `2h`, `1h5m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = [h && `${h}h`, m && `${m}m`, s && `${s}s`].filter(Boolean);
  return parts.length ? parts.join('') : '0s';
}
