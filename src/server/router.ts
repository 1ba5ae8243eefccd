/**
 * A route matcher built once from route templates (`/api/public/v2.0/users/{user_id}`).
 * A `{name}` segment matches only a positive integer within the safe range (any other id is
 * 404), so `/users/abc` is an unknown path, not a 405. `HEAD` matches a path's `GET` target;
 * `OPTIONS` never matches a target: the caller answers it from `allow`.
 */
export interface RouteDef<T> {
  method: string;
  path: string;
  target: T;
}

export type RouteMatch<T> =
  | { found: true; target: T; params: Record<string, number> }
  | { found: false; allow: string[] | null };

interface Compiled<T> {
  /** Literal segments, or null where a parameter goes. */
  segments: (string | null)[];
  names: string[];
  byMethod: Map<string, T>;
}

const ID = /^[1-9][0-9]{0,15}$/;

/** Parses a path id: a positive integer up to `Number.MAX_SAFE_INTEGER`, else undefined. */
export function parseId(segment: string): number | undefined {
  if (!ID.test(segment)) return undefined;
  const n = Number(segment);
  return n <= Number.MAX_SAFE_INTEGER ? n : undefined;
}

export class Router<T> {
  private readonly bySize = new Map<number, Compiled<T>[]>();

  constructor(routes: Iterable<RouteDef<T>>) {
    const byPath = new Map<string, Compiled<T>>();
    for (const { method, path, target } of routes) {
      let route = byPath.get(path);
      if (!route) {
        const parts = path.split('/');
        route = {
          segments: parts.map((p) => (p.startsWith('{') ? null : p)),
          names: parts.filter((p) => p.startsWith('{')).map((p) => p.slice(1, -1)),
          byMethod: new Map(),
        };
        byPath.set(path, route);
        const list = this.bySize.get(parts.length) ?? [];
        list.push(route);
        this.bySize.set(parts.length, list);
      }
      route.byMethod.set(method, target);
    }
  }

  /** Matches a path (no query string); `allow` lists the methods of a known path, else null. */
  match(method: string, pathname: string): RouteMatch<T> {
    const parts = pathname.split('/');
    for (const route of this.bySize.get(parts.length) ?? []) {
      const ids = matchSegments(route.segments, parts);
      if (!ids) continue;
      const target = route.byMethod.get(method === 'HEAD' ? 'GET' : method);
      if (target === undefined || method === 'OPTIONS') return { found: false, allow: allowed(route.byMethod) };
      const params: Record<string, number> = {};
      route.names.forEach((name, i) => (params[name] = ids[i]));
      return { found: true, target, params };
    }
    return { found: false, allow: null };
  }
}

/** A path's methods as `Allow` lists them: its own, `HEAD` beside a `GET`, and `OPTIONS`. */
function allowed(byMethod: Map<string, unknown>): string[] {
  const methods = [...byMethod.keys()];
  if (byMethod.has('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  return methods;
}

function matchSegments(segments: (string | null)[], parts: string[]): number[] | undefined {
  const ids: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const literal = segments[i];
    if (literal !== null) {
      if (literal !== parts[i]) return undefined;
      continue;
    }
    const id = parseId(parts[i]);
    if (id === undefined) return undefined;
    ids.push(id);
  }
  return ids;
}
