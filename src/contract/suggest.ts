/** "Did you mean …?" for a misspelt name: the closest candidate within a small edit distance (CLI flags, fault-rule routes). */

/** Edits (insert, delete, replace, swap of neighbours) that turn `a` into `b`. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The candidate closest to `name` (case ignored), within two edits (one for names shorter than five letters). */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { candidate: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase());
    if (!best || d < best.d) best = { candidate, d };
  }
  return best && best.d <= (name.length < 5 ? 1 : 2) ? best.candidate : undefined;
}

/** ` (did you mean x?)` for `name`, or nothing. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const match = closest(name, candidates);
  return match ? ` (did you mean ${match}?)` : '';
}
