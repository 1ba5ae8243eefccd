/**
 * `confctl api [METHOD] PATH`: any request to the profile's API with its key, like `gh api`.
 * Prints the answer's body (JSON pretty-printed, anything else as is); a non-2xx answer's body
 * is printed too, and the exit code is the status's (3, 4, 5, 6, 7, else 1).
 */
import { collect } from '../../collect.js';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { curlCommand, shellQuote } from '../../../client/curl.js';
import type { Flags } from '../resource.js';
import { type CliContext, type GlobalOptions, globalOptions, UsageError } from '../../context.js';
import { accessFor, keyHeaders, type RawRequest, resolveUrl, sendRaw } from './http.js';
import { dataText, type FieldSpec, fieldsObject, fieldValue, type Readers, parseHeader, splitField, withQuery } from './input.js';
import { bodyText, headText, statusError } from './output.js';
import { paginate } from './paginate.js';
import { examples } from '../../help.js';
import { renderValue } from '../../output/index.js';

export interface ApiOptions {
  method: string;
  path: string;
  fields: FieldSpec[];
  data?: string;
  headers: [string, string][];
  include: boolean;
  paginate: boolean;
  dryRun: boolean;
  showSecret: boolean;
  globals: GlobalOptions;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** Flags → options; no I/O. One argument is a GET of that path. */
export function apiOptions(first: string, second: string | undefined, flags: Record<string, unknown>, cmd: Command): ApiOptions {
  if (second === undefined && METHODS.includes(first.toUpperCase())) throw new UsageError(`missing the path after ${first}`, `e.g. confctl api ${first} /users`);
  const [method, path] = second === undefined ? ['GET', first] : [first.toUpperCase(), second];
  if (!METHODS.includes(method)) throw new UsageError(`unknown method '${first}' (one of ${METHODS.join(', ')})`);
  const typed = ((flags.field as string[]) ?? []).map((s) => ({ ...splitField(s, '--field'), typed: true }));
  const raw = ((flags.rawField as string[]) ?? []).map((s) => ({ ...splitField(s, '--raw-field'), typed: false }));
  const o = { ...cmd.optsWithGlobals(), ...flags };
  const opts: ApiOptions = {
    method,
    path,
    fields: [...typed, ...raw],
    data: flags.data as string | undefined,
    headers: ((flags.header as string[]) ?? []).map(parseHeader),
    include: Boolean(flags.include),
    paginate: Boolean(flags.paginate),
    dryRun: Boolean(o.dryRun),
    showSecret: Boolean(o.showSecret),
    globals: globalOptions(cmd),
  };
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET only');
  if (opts.paginate && opts.include) throw new UsageError('give --paginate or --include, not both (headers would break the JSON array)');
  if (opts.globals.query !== undefined && opts.include) throw new UsageError('give --query or --include, not both (--query reads the JSON body)');
  if (opts.data !== undefined && opts.fields.length && method !== 'GET') throw new UsageError('give --data or --field/--raw-field, not both');
  return opts;
}

/** Builds the request: fields in the query for GET, else a JSON body; `--header`s last (they win). */
export async function buildRequest(opts: ApiOptions, base: { baseUrl: string; keyId: string; secret: string }, read: Readers): Promise<RawRequest> {
  const fields = await Promise.all(opts.fields.map(async (f) => ({ key: f.key, value: await fieldValue(f, read) })));
  const get = opts.method === 'GET';
  const body = opts.data !== undefined ? await dataText(opts.data, read) : !get && fields.length ? JSON.stringify(fieldsObject(fields)) : undefined;
  const headers = keyHeaders(base.keyId, base.secret);
  if (body !== undefined) headers['content-type'] = 'application/json';
  for (const [k, v] of opts.headers) headers[k] = v;
  return { method: opts.method, url: resolveUrl(base.baseUrl, get ? withQuery(opts.path, fields) : opts.path), headers, body };
}

export async function runApi(opts: ApiOptions, ctx: CliContext): Promise<void> {
  const access = await accessFor(ctx, opts.globals);
  const read: Readers = { file: (p) => readFile(p, 'utf8'), stdin: () => readAll(ctx.streams.stdin) };
  const req = await buildRequest(opts, access, read);
  const write = (s: string) => ctx.streams.stdout.write(s);
  const { query } = opts.globals;
  // With --query a success's JSON is collected, then queried (`printQueried`); an error's body prints as it came.
  const printed: string[] = [];
  const out = query === undefined ? write : (s: string) => void printed.push(s);
  if (opts.dryRun) {
    const extra = Object.entries(req.headers).filter(([k]) => opts.headers.some(([h]) => h === k) && !['x-access-key-id', 'x-access-key-secret', 'content-type'].includes(k));
    out(`${[curlCommand(req, { showSecret: opts.showSecret }), ...extra.map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`)].join(' ')}\n`);
    return;
  }
  const send = { timeoutMs: opts.globals.timeoutMs, log: opts.globals.verbose ? (l: string) => void ctx.streams.stderr.write(`${l}\n`) : undefined };
  if (opts.paginate) {
    try {
      await paginate(req, send, { raw: opts.globals.raw, out });
    } catch (err) {
      write(printed.join(''));
      throw err;
    }
    return query === undefined ? undefined : printQueried(ctx, printed.join(''), query);
  }
  const answer = await sendRaw(req, send);
  const ok = answer.status >= 200 && answer.status <= 299;
  if (opts.include) write(headText(answer));
  if (query !== undefined && ok) await printQueried(ctx, bodyText(answer), query);
  else write(bodyText(answer));
  if (!ok) throw statusError(req, answer);
}

/** `--query` over the JSON printed; a body that is not JSON (an error page) prints as it came. */
async function printQueried(ctx: CliContext, text: string, query: string): Promise<void> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return void ctx.streams.stdout.write(text);
  }
  await renderValue(ctx.streams, value, 'json', query);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}

export function register(program: Command, ctx: CliContext, runF?: (opts: ApiOptions) => Promise<void>): void {
  program
    .command('api')
    .description("Send any request to the API with the profile's key and print the answer")
    .argument('<method-or-path>', 'GET, POST, PATCH, ... (or the path, for a GET)')
    .argument('[path]', 'path under the base URL, query allowed (e.g. /users?page_size=5)')
    .option('-F, --field <key=value>', 'a typed field (numbers, true, false, null; @file reads a file): query for GET, JSON body otherwise', collect, [])
    .option('-f, --raw-field <key=value>', 'a string field', collect, [])
    .option('--data <json>', 'the request body: JSON text, @file, or - for stdin (sent as given)')
    .option('-H, --header <header>', "an extra request header 'Name: value'", collect, [])
    .option('-i, --include', 'print the status line and headers before the body')
    .option('--paginate', "follow next_page_url and print every page's data as one JSON array (with --raw: the envelopes)")
    .addHelpText(
      'after',
      examples(
        'confctl api /users?page_size=5',
        'confctl api POST /customers -F first_name=Ada -F last_name=Lovelace -F email=ada@example.com',
        "confctl api PATCH /customers/7 -F 'address[city]=London'",
        'confctl api --paginate /customers --raw-field filter_attribute=email -f filter_operator=Contains -f filter_value=@acme',
      ),
    )
    .action((first: string, second: string | undefined, flags: Flags, cmd: Command) => (runF ?? ((o) => runApi(o, ctx)))(apiOptions(first, second, flags, cmd)));
}
