import { type Paginated, PARAM_ALIASES, SUCCESS_MESSAGES } from '../contract/index.js';
import type { ListResult } from '../store/types.js';

/** Where the list was requested: absolute URL parts and the query as sent. */
export interface PageLocation {
  /** `scheme://host[:port]`. */
  origin: string;
  pathname: string;
  params: URLSearchParams;
}

const PAGE_PARAMS = new Set(['page_number', 'page_size', ...Object.keys(PARAM_ALIASES)]);

/**
 * The paginated envelope (spec §2, decisions §6, §10): absolute URLs that keep every other query
 * parameter as sent, followed by the canonical `page_number` and `page_size`; `from`/`to` null on
 * an empty page; next/prev null at the ends; `last_page` at least 1.
 */
export function paginate<T>(result: ListResult<T>, page: { page_number: number; page_size: number }, at: PageLocation): Paginated<T> {
  const { page_number: current, page_size: size } = page;
  const path = at.origin + at.pathname;
  const kept = new URLSearchParams();
  for (const [k, v] of at.params) if (!PAGE_PARAMS.has(k)) kept.append(k, v);
  const prefix = kept.size ? `${path}?${kept.toString()}&` : `${path}?`;
  const url = (n: number) => `${prefix}page_number=${n}&page_size=${size}`;
  const lastPage = Math.max(1, Math.ceil(result.total / size));
  const from = result.rows.length ? (current - 1) * size + 1 : null;
  return {
    message: SUCCESS_MESSAGES.list,
    data: result.rows,
    current_page: current,
    first_page_url: url(1),
    from,
    last_page: lastPage,
    last_page_url: url(lastPage),
    next_page_url: current < lastPage ? url(current + 1) : null,
    path,
    per_page: size,
    prev_page_url: current > 1 ? url(current - 1) : null,
    to: from === null ? null : from + result.rows.length - 1,
    total: result.total,
  };
}
