/**
 * `export`: the tenant's managed state as desired-state files, one per kind, in the files'
 * vocabulary (no ids, no server-made fields), so that planning them again shows no change. No I/O.
 */
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
  const doc = new Document(records);
  // A time of day on one line (`{ hour: 9, minute: 0, second: 0 }`): a week of work hours stays short.
  visit(doc, {
    Map(_, node) {
      if (node.items.some((p) => isScalar(p.key) && p.key.value === 'hour')) node.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}
