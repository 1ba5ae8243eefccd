/**
 * The foreign keys of rows written while the connection does not enforce them (a bulk load that
 * copies a table built aside, see bulk.ts: SQLite copies a table's pages only with enforcement
 * off). Each key's distinct values are gathered as the rows are written, and `check` looks each one
 * up in its parent table, as enforcement would have at the end of the statement: once per distinct
 * value instead of once per row.
 */
import type { Db } from './db.js';

export interface ForeignKeyTally {
  /** Notes one written row: its values in the order of the `columns` the tally was made for. */
  add(values: readonly unknown[]): void;
  /** Throws the way enforcement would when a noted key has no parent row. */
  check(): void;
}

interface Key {
  parent: string;
  from: string[];
  to: string[];
  /** The positions of `from` in the written values. */
  at: number[];
  seen: Map<unknown, unknown[]>;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A tally for rows of `table` written with the values of `columns`. A key column the rows do not
 * write holds its default, which must be NULL (a key with a NULL column needs no parent).
 */
export function foreignKeyTally(db: Db, table: string, columns: readonly string[]): ForeignKeyTally {
  const list = db.prepare('SELECT id, "table" AS parent, "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq').all(table) as {
    id: number;
    parent: string;
    from: string;
    to: string | null;
  }[];
  const defaults = new Map((db.prepare('SELECT name, dflt_value FROM pragma_table_info(?)').raw().all(table) as [string, string | null][]).map(([n, d]) => [n, d]));
  const keys = new Map<number, Key>();
  for (const fk of list) {
    const key: Key = keys.get(fk.id) ?? { parent: fk.parent, from: [], to: [], at: [], seen: new Map() };
    keys.set(fk.id, key);
    key.from.push(fk.from);
    if (fk.to !== null) key.to.push(fk.to);
    const at = columns.indexOf(fk.from);
    if (at < 0 && defaults.get(fk.from) !== null) throw new Error(`the bulk loader does not write ${table}.${fk.from}, a foreign key column with a default`);
    key.at.push(at);
  }
  for (const key of keys.values()) {
    if (key.to.length === 0) key.to = db.prepare('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk').pluck().all(key.parent) as string[];
  }
  // A key with a column the rows do not write is NULL in every row: nothing to check.
  const checked = [...keys.values()].filter((k) => !k.at.includes(-1));
  return {
    add(values) {
      for (const key of checked) {
        if (key.at.length === 1) {
          const v = values[key.at[0]];
          if (v !== null && v !== undefined && !key.seen.has(v)) key.seen.set(v, [v]);
          continue;
        }
        const tuple = key.at.map((i) => values[i]);
        if (tuple.some((v) => v === null || v === undefined)) continue;
        const id = JSON.stringify(tuple);
        if (!key.seen.has(id)) key.seen.set(id, tuple);
      }
    },
    check() {
      for (const key of checked) {
        const parent = db.prepare(`SELECT 1 FROM ${quote(key.parent)} WHERE ${key.to.map((c) => `${quote(c)} = ?`).join(' AND ')}`).pluck();
        for (const tuple of key.seen.values()) {
          if (parent.get(...tuple) === undefined) {
            throw new Error(`FOREIGN KEY constraint failed: ${table}(${key.from.join(', ')}) = ${JSON.stringify(tuple)} has no row in ${key.parent}`);
          }
        }
      }
    },
  };
}
