/**
 * `confctl api --paginate`: follows `next_page_url` (same origin only, each URL once) and prints
 * every page's `data` as one JSON array, or with `--raw` the array of whole envelopes. A page
 * that is not a list envelope is printed as is and ends the walk; a failing page prints its body
 * and exits with its status's code.
 */
import { type RawRequest, type SendOptions, resolveUrl, sendRaw } from './http.js';
import { bodyText, statusError } from './output.js';

export async function paginate(first: RawRequest, send: SendOptions, opts: { raw: boolean; out: (s: string) => void }): Promise<void> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let req: RawRequest | undefined = first;
  while (req) {
    seen.add(req.url);
    const answer = await sendRaw(req, send);
    if (answer.status < 200 || answer.status > 299) {
      opts.out(bodyText(answer));
      throw statusError(req, answer);
    }
    let page: { data?: unknown; next_page_url?: unknown } | undefined;
    try {
      page = JSON.parse(answer.text) as typeof page;
    } catch {
      page = undefined;
    }
    if (!page || !Array.isArray(page.data)) {
      if (!items.length) return void opts.out(bodyText(answer));
      break;
    }
    items.push(...(opts.raw ? [page] : (page.data as unknown[])));
    const next = page.next_page_url;
    const url = typeof next === 'string' && page.data.length ? resolveUrl(first.url, next) : undefined;
    req = url && !seen.has(url) ? { ...req, url } : undefined;
  }
  opts.out(`${JSON.stringify(items, null, 2)}\n`);
}
