/**
 * ISO 8601 inputs (decisions §1): a date `YYYY-MM-DD` (or the reduced `YYYY-MM`, `YYYY`), or a
 * date-time `YYYY-MM-DDThh:mm[:ss[.fff]]` with `Z`, `±hh`, `±hhmm` or `±hh:mm` (`t`/`z` and a
 * space for `T` accepted). Without an offset the time is UTC, like every time of the interface.
 */
const ISO = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/;

/**
 * The instant an ISO 8601 date or date-time names, in epoch milliseconds; undefined for anything
 * else, including impossible calendar dates (`2026-02-30`) and times (`25:00`) that `Date.parse`
 * would roll over or accept (`5`, `March 7`).
 */
export function parseIsoInstant(text: string): number | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || minute > 59 || second > 59) return undefined;
  if (hour > 24 || (hour === 24 && (minute > 0 || second > 0 || /[1-9]/.test(frac)))) return undefined;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  if (date.getUTCMonth() !== month - 1) return undefined;
  let offset = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return undefined;
    offset = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const ms = Number(`0.${frac || '0'}`) * 1000;
  return date.getTime() + ((hour * 60 + minute) * 60 + second) * 1000 + Math.floor(ms) - offset;
}
