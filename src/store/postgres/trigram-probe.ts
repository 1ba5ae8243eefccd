/**
 * The trigram probe: the count of a `Contains` of several words through a table of folded texts
 * (folded-texts.ts) asks its trigram index for the rows holding the value's rarest word alone,
 * and tests the whole value on those candidates.
 *
 * pg_trgm's GIN scan reads the posting list of every trigram of the pattern and intersects them:
 * "new york, united states" has 22 trigrams, each in 85,000-180,000 of a million customers, so
 * its bitmap alone cost more than the recheck of its 85,578 matches on the narrow table's heap
 * (PostgreSQL's own CPU, serial: 95 ms for the count against 51 for "new york"). The rarest word
 * ("york": 2 trigrams) finds the same rows. Which word is rarest only the data says: the column's
 * statistics (`pg_stats`, what ANALYZE sampled: the most common values and their shares, and the
 * histogram's bounds for the rest, as PostgreSQL's own estimate of a LIKE reads them) give each
 * word's share and the whole value's. A word is taken only when its share is at most twice the
 * whole's (and half a percent): "17 high street" keeps its every trigram, as its words are each
 * in a seventh of the rows and the whole in a few hundredth. With no statistics, the whole
 * pattern is kept. Exactness never depends on the choice: every candidate is tested with the
 * whole `LIKE`.
 */

/** The probe function (migration 14). */
export const TRIGRAM_PROBE = 'confctl_trigram_probe';

/**
 * Migration 14: `TRIGRAM_PROBE(table, column, pattern)`, the `LIKE` pattern for the trigram
 * index's scan: `'%word%'` of the rarest word (run of letters and digits, 3 or more) of `pattern`
 * (a `Contains` pattern `'%value%'`, with `\`, `%` and `_` escaped by `\`), or `pattern` itself.
 * Its words are the value's: an escape character is never a letter or a digit. The whole
 * pattern's share is that of the rows its trigrams reach: a word of one character first or last
 * (the `1` of "1 main street") has no trigram of its own in a `LIKE` pattern, so the index returns
 * every row of "main street", 143,000 of a million customers, to find 12,000.
 */
export const trigramProbeDdl = () => `
CREATE FUNCTION ${TRIGRAM_PROBE}(tbl text, col text, pattern text) RETURNS text LANGUAGE sql STABLE AS $$
WITH st AS (
  SELECT s.most_common_vals::text::text[] AS mcv, s.most_common_freqs AS freqs, s.histogram_bounds::text::text[] AS hist, s.null_frac AS nulls
  FROM pg_stats s WHERE s.schemaname = current_schema() AND s.tablename = tbl AND s.attname = col
), probes AS (
  SELECT '%' || w || '%' AS probe, '%' || w || '%' AS reach FROM regexp_split_to_table(pattern, '[^[:alnum:]]+') w WHERE length(w) >= 3
  UNION SELECT pattern, regexp_replace(regexp_replace(pattern, '^%[[:alnum:]][^[:alnum:]]+', '%'), '[^[:alnum:]]+[[:alnum:]]%$', '%')
), shares AS (
  SELECT p.probe,
    COALESCE((SELECT sum(m.f) FROM unnest(st.mcv, st.freqs) m(v, f) WHERE m.v LIKE p.reach), 0)
      + (1 - st.nulls - COALESCE((SELECT sum(f) FROM unnest(st.freqs) f), 0)) * COALESCE((SELECT avg((h LIKE p.reach)::int) FROM unnest(st.hist) h), 0) AS share
  FROM st, probes p
)
SELECT COALESCE(
  (SELECT w.probe FROM shares w, shares whole WHERE whole.probe = pattern AND w.probe <> pattern AND w.share <= 2 * whole.share + 0.005
   ORDER BY w.share, length(w.probe) DESC, w.probe LIMIT 1),
  pattern)
$$;
`;

/** Whether a `Contains` value has two or more words, so that the probe may find fewer trigrams to read than the whole value's. */
export const manyWords = (value: string) => (value.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 2;

/**
 * The count of the rows of `table` (alias `t`) that `where` keeps and whose `column` matches
 * `pattern` (an SQL expression of the `Contains` pattern, see `TRIGRAM_PROBE`; `test` is the
 * list's `LIKE` of it on `t`): the candidates of the probe's pattern, then `test` on each.
 * `OFFSET 0` keeps the whole `LIKE` out of the index's scan, which would otherwise read its every
 * trigram again.
 */
export const probedCountSql = (table: string, column: string, where: string, test: string, pattern: string) =>
  `SELECT count(*) AS n FROM (SELECT t.${column} FROM ${table} t WHERE ${where}` +
  ` AND t.${column} LIKE (SELECT ${TRIGRAM_PROBE}('${table}', '${column}', ${pattern})) ESCAPE '\\' OFFSET 0) t WHERE ${test}`;
