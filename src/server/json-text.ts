/**
 * A resource the store already wrote as JSON text (`store.users.getJson`), spliced into the
 * response envelope as is: the hot paths skip building the object and `JSON.stringify` walking it.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * `texts` (a page of resources the store wrote as JSON text) as `JsonText`s: the same array for
 * the same page, so that its envelopes share their text and bytes as any page's do (see `pages`).
 */
const textPages = new WeakMap<string[], JsonText[]>();

export function jsonTexts(texts: string[]): JsonText[] {
  let page = textPages.get(texts);
  if (page === undefined) textPages.set(texts, (page = texts.map((text) => new JsonText(text))));
  return page;
}

/** What was written of a page's rows: their JSON text, and the last envelope they went into. */
interface PageTexts {
  rows: string;
  /** The last envelope: its message and other members (`around`), its text, and its bytes once it is written again. */
  envelope?: { around: string; text: string; bytes?: Buffer };
}

/**
 * The texts written of pages, by their rows array. PostgreSQL's list lane answers the identical
 * lists asked for together with one rows array (`ListLane.shared`), and SQLite's list runner
 * identical lists with nothing written between them (`ListRunner.pages`): its text is written once,
 * then spliced into each of their envelopes, and from the second identical envelope on the
 * envelope's bytes are shared too, so that each answer writes the same Buffer to its socket
 * instead of a string of its own to encode (and, on a socket whose client reads slowly, to hold).
 * In the pipelined-lists trial (200 connections' pages of 100 customers, answered together)
 * writing each page's text took 17 % of `serve`'s CPU; then encoding each answer's string and
 * collecting those strings took most of the loop's busy time. A page's rows are never modified
 * once answered.
 */
const pages = new WeakMap<unknown[], PageTexts>();

function pageTexts(rows: unknown[]): PageTexts {
  let texts = pages.get(rows);
  if (texts === undefined) {
    const json = rows[0] instanceof JsonText ? `[${(rows as JsonText[]).map((d) => d.text).join(',')}]` : JSON.stringify(rows);
    pages.set(rows, (texts = { rows: json }));
  }
  return texts;
}

/** `{"message":…,"data":` then `data`'s text, then the members after it (`tail`, as `JSON.stringify` wrote them alone). */
function joined(message: string, data: string, tail: string): string {
  return `{"message":${JSON.stringify(message)},"data":${data}${tail === '{}' ? '}' : `,${tail.slice(1)}`}`;
}

/**
 * The envelope of `page`'s rows: its text the first time, its bytes, shared by every identical
 * envelope after it, from the second (a page answered once is encoded once, by its socket write).
 */
function pageEnvelope(page: PageTexts, message: string, tail: string): string | Buffer {
  const around = `${message}\n${tail}`;
  const last = page.envelope;
  if (last?.around === around) return (last.bytes ??= Buffer.from(last.text, 'utf8'));
  const text = joined(message, page.rows, tail);
  page.envelope = { around, text };
  return text;
}

/**
 * `JSON.stringify(envelope)` where `data` may be a `JsonText` or an array of them (a list page):
 * a string, or a Buffer when the same page's identical envelope was written before (see `pages`).
 * Both envelopes start with `message` then `data` (spec §2), so the rest is written by
 * `JSON.stringify` and joined after them.
 */
export function envelopeJson(envelope: { message: string; data: unknown }): string | Buffer {
  const { message, data, ...rest } = envelope;
  if (data instanceof JsonText) return joined(message, data.text, JSON.stringify(rest));
  if (Array.isArray(data)) return pageEnvelope(pageTexts(data), message, JSON.stringify(rest));
  return JSON.stringify(envelope);
}
