/**
 * `confctl api [METHOD] PATH`: any request to the profile's API with its key, like `gh api`.
 * Prints the answer's body (JSON pretty-printed, anything else as is); a non-2xx answer's body
 * is printed too, and the exit code is the status's (3, 4, 5, 6, 7, else 1).
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { curlCommand, shellQuote } from '../../client/curl.js';
import { type CliContext, type GlobalOptions, globalOptions, UsageError } from '../context.js';
import { accessFor, keyHeaders, type RawRequest, resolveUrl, sendRaw } from './api-http.js';
import { dataText, type FieldSpec, fieldsObject, fieldValue, type Readers, parseHeader, splitField, withQuery } from './api-input.js';
import { bodyText, headText, statusError } from './api-output.js';
import { paginate } from './api-paginate.js';
import { examples } from '../help.js';

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
const collect = (v: string, all: string[]) => [...all, v];

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
  const out = (s: string) => ctx.streams.stdout.write(s);
  if (opts.dryRun) {
    const extra = Object.entries(req.headers).filter(([k]) => opts.headers.some(([h]) => h === k) && !['x-access-key-id', 'x-access-key-secret', 'content-type'].includes(k));
    out(`${[curlCommand(req, { showSecret: opts.showSecret }), ...extra.map(([k, v]) => `-H ${shellQuote(`${k}: ${v}`)}`)].join(' ')}\n`);
    return;
  }
  const send = { timeoutMs: opts.globals.timeoutMs, log: opts.globals.verbose ? (l: string) => void ctx.streams.stderr.write(`${l}\n`) : undefined };
  if (opts.paginate) return paginate(req, send, { raw: opts.globals.raw, out });
  const answer = await sendRaw(req, send);
  if (opts.include) out(headText(answer));
  out(bodyText(answer));
  if (answer.status < 200 || answer.status > 299) throw statusError(req, answer);
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
    .action((first: string, second: string | undefined, flags, cmd: Command) => (runF ?? ((o) => runApi(o, ctx)))(apiOptions(first, second, flags, cmd)));
}
