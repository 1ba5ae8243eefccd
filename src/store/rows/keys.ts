/** An access key as both stores keep it: its permissions as JSON text. */
import type { AccessKeyRecord } from '../types.js';

export interface KeyRow extends Omit<AccessKeyRecord, 'permissions'> {
  permissions: string;
}

export const toKeyRecord = (r: KeyRow): AccessKeyRecord => ({ ...r, permissions: JSON.parse(r.permissions) as string[] });
