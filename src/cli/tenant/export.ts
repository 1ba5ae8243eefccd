/**
 * `export`: the tenant's managed state as desired-state files, one per kind, in the files'
 * vocabulary (no ids, no server-made fields), so that planning them again shows no change. No I/O.
 */
import { randomBytes } from 'node:crypto';
import { Document, isScalar, visit } from 'yaml';
import { ADDRESS_PARTS } from '../../contract/resource-fields.js';
import { csvLine } from '../output/csv.js';
import { at } from '../output/values.js';
import { customerView, userView } from './diff-people.js';
import { CUSTOMER_KEYS, type Kind, type Record_, type Snapshot, USER_KEYS } from './model.js';

/** Each kind's records as the files hold them. */
export function exportRecords(snapshot: Snapshot, kind: Kind): Record_[] {
  if (kind === 'users') return (snapshot.users ?? []).map(userView);
  if (kind === 'customers') return (snapshot.customers ?? []).map(customerView);
  return (snapshot.conferences ?? []).map((c) => {
    const several = c.host && (snapshot.accounts?.get(c.host.user_id)?.length ?? 0) > 1;
    return {
      public_id: c.public_id,
      title: c.title,
      is_public: c.is_public,
      host: c.host?.email ?? null,
      ...(several && { account: c.host!.account }),
      attendees: c.attendees.map((a) => ({ email: a.email, name: a.name })),
    };
  });
}

export type ExportFormat = 'yaml' | 'json' | 'csv';

/** CSV columns: the same dotted paths as `-o csv` (an address by its parts, work hours one JSON cell). */
const CSV_COLUMNS: Partial<Record<Kind, readonly string[]>> = {
  users: USER_KEYS,
  customers: CUSTOMER_KEYS.flatMap((k) => (k === 'address' ? ADDRESS_PARTS.map((p) => `address.${p}`) : [k])),
};

/** Whether `kind` can be written as `format` (CSV holds users and customers only). */
export const canExport = (kind: Kind, format: ExportFormat): boolean => format !== 'csv' || Boolean(CSV_COLUMNS[kind]);

/** The text of one kind's file. */
export function exportText(records: readonly Record_[], kind: Kind, format: ExportFormat): string {
  if (format === 'json') return `${JSON.stringify(records, null, 2)}\n`;
  if (format === 'csv') {
    const columns = CSV_COLUMNS[kind]!;
    return csvLine(columns) + records.map((r) => csvLine(columns.map((c) => at(r, c)))).join('');
  }
  if (!records.length) return '[]\n';
  return yamlText(records);
}

/** YAML as the `yaml` package writes `value`, a time of day on one line (`{ hour: 9, minute: 0, second: 0 }`), so a week of work hours stays short. */
function documentText(value: unknown): string {
  const doc = new Document(value);
  visit(doc, {
    Map(_, node) {
      if (node.items.some((p) => isScalar(p.key) && p.key.value === 'hour')) node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/** Whether `value` is plain JSON data (no NaN or Infinity, no undefined, no class instances), so that equal JSON means equal YAML. */
function plainData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(plainData);
  return typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(plainData);
}

/**
 * The records as documentText writes them, faster: work hours are most of a users file's nodes
 * and most weeks repeat from user to user, so each distinct week is written once, as a record's
 * only key, and its text put in place of a token the records carry instead (19,004 seeded users:
 * 2.9 s of writing became 1.3 s, docs/performance.md). The text under a record's key is the same
 * wherever the key stands in the record.
 */
function yamlText(records: readonly Record_[]): string {
  const token = `confctl-week-${randomBytes(8).toString('hex')}-`;
  const weeks = new Map<string, number>();
  const texts: string[] = [];
  const standIns = records.map((r) => {
    const week = r.work_hours;
    if (week === null || typeof week !== 'object' || !plainData(week)) return r;
    const key = JSON.stringify(week);
    let n = weeks.get(key);
    if (n === undefined) {
      n = texts.push(documentText([{ work_hours: week }]).slice('- work_hours:'.length)) - 1;
      weeks.set(key, n);
    }
    return { ...r, work_hours: `${token}${n}` };
  });
  const text = documentText(standIns);
  return texts.length ? text.replace(new RegExp(`: ${token}(\\d+)\n`, 'g'), (_, n: string) => `:${texts[Number(n)]}`) : text;
}
