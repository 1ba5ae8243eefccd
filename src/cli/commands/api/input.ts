/**
 * `confctl api` input, as `gh api` takes it: `--field k=v` (typed), `--raw-field k=v` (strings),
 * nested keys `a[b]=v` and `a[]=v`, `--data JSON|@file|-`, `--header 'K: V'`. Parsing only;
 * reading `@file` and stdin goes through the `read` callbacks.
 */
import { UsageError } from '../../context.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface FieldSpec {
  key: string;
  value: string;
  typed: boolean;
}

export interface Readers {
  file(path: string): Promise<string>;
  stdin(): Promise<string>;
}

/** `k=v` split at the first `=`; the key may not be empty. */
export function splitField(spec: string, flag: string): { key: string; value: string } {
  const at = spec.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} expects key=value, not '${spec}'`);
  return { key: spec.slice(0, at), value: spec.slice(at + 1) };
}

/**
 * A `--field` value: `true`, `false`, `null` and numbers become JSON; `@path` is the file's text,
 * `@-` stdin's. Anything else (and every `--raw-field`) stays a string.
 */
export async function fieldValue(f: FieldSpec, read: Readers): Promise<Json> {
  if (!f.typed) return f.value;
  if (f.value === 'true') return true;
  if (f.value === 'false') return false;
  if (f.value === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(f.value) && Number.isSafeInteger(Math.trunc(Number(f.value)))) return Number(f.value);
  if (f.value.startsWith('@')) return f.value === '@-' ? read.stdin() : read.file(f.value.slice(1));
  return f.value;
}

/** `a[b][]` → `['a', 'b', '']`, an empty segment meaning "append to an array". */
export function keyPath(key: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) throw new UsageError(`bad field name '${key}' (use name, name[sub] or name[])`);
  return [m[1], ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1])];
}

/** The JSON object the fields make, nested keys included (`a[]` appends a new element). */
export function fieldsObject(entries: readonly { key: string; value: Json }[]): Record<string, Json> {
  const root: Record<string, Json> = {};
  for (const { key, value } of entries) {
    const path = keyPath(key);
    let node: Record<string, Json> | Json[] = root;
    for (let i = 0; i < path.length; i++) {
      const seg = path[i];
      const last = i === path.length - 1;
      const wantArray = !last && path[i + 1] === '';
      if (Array.isArray(node)) {
        if (seg !== '') throw new UsageError(`field '${key}' mixes an array and named keys`);
        const child: Json = last ? value : wantArray ? [] : {};
        node.push(child);
        node = child as Json[];
      } else if (last) {
        node[seg] = value;
      } else {
        const existing: Json | undefined = node[seg];
        const fits: boolean = existing !== null && typeof existing === 'object' && Array.isArray(existing) === wantArray;
        node = fits ? (existing as Json[]) : (node[seg] = wantArray ? [] : {});
      }
    }
  }
  return root;
}

/** `PATH?query` plus the fields as query parameters (GET): `null` is an empty value. */
export function withQuery(path: string, entries: readonly { key: string; value: Json }[]): string {
  if (!entries.length) return path;
  const params = new URLSearchParams();
  for (const { key, value } of entries) params.append(key, value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  return `${path}${path.includes('?') ? '&' : '?'}${params.toString()}`;
}

/** `--header 'Name: value'` → `[name, value]`, the name lower-cased. */
export function parseHeader(spec: string): [string, string] {
  const at = spec.indexOf(':');
  const name = at > 0 ? spec.slice(0, at).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header expects 'Name: value', not '${spec}'`);
  return [name.toLowerCase(), spec.slice(at + 1).trim()];
}

/** `--data`: literal JSON text, `@file`, or `-` for stdin; sent as given (the server judges it). */
export function dataText(data: string, read: Readers): Promise<string> {
  if (data === '-') return read.stdin();
  if (data.startsWith('@')) return read.file(data.slice(1));
  return Promise.resolve(data);
}
