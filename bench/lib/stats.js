// Pure helpers of the benchmark: medians, /proc parsing, ratios and the printed table.

/** The median of a non-empty list of numbers (the mean of the two middle values for an even count). */
export function median(values) {
  if (values.length === 0) throw new Error('median of no values');
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The run whose `value` is the median of an odd number of runs (the upper middle one of an even
 * number): a whole measurement, so that its figures stay consistent with each other.
 */
export function middleRun(runs, value) {
  if (runs.length === 0) throw new Error('middle of no runs');
  return [...runs].sort((a, b) => value(a) - value(b))[runs.length >> 1];
}

/**
 * utime + stime in clock ticks from the text of /proc/<pid>/stat. The command name (field 2) is in
 * parentheses and may itself hold spaces or parentheses, so fields are counted after the last `)`.
 */
export function cpuTicksFromStat(text) {
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('unreadable /proc/<pid>/stat');
  return utime + stime;
}

/** A `kB` field (VmHWM, VmRSS, …) of /proc/<pid>/status, in bytes; undefined when absent. */
export function statusField(text, name) {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(text);
  return match ? Number(match[1]) * 1024 : undefined;
}

/** `value` with `digits` decimals, or `n/a` for a missing or non-finite value. */
export function fixed(value, digits) {
  return value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits);
}

/** A ratio where higher is better, two decimals below 10 and one above (`0.16`, `6.4`). */
export function ratio(value) {
  return value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(value >= 10 ? 1 : 2);
}

/** Bytes as MB (10^6), no decimals. */
export function megabytes(bytes) {
  return bytes === undefined ? 'n/a' : `${Math.round(bytes / 1e6)} MB`;
}

/** Rows of cells as a GitHub-flavoured Markdown table (docs/performance.md takes it as printed). */
export function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The nearest-rank `p`th percentile (0 < p ≤ 100) of a non-empty list: the smallest value with at least p % of the values at or below it. */
export function percentile(values, p) {
  if (values.length === 0) throw new Error('percentile of no values');
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)];
}
