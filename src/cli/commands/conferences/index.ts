/** `confctl conferences list|create|get|update|delete` and `conferences attendees list|add|remove|join-link`. */
import { collect } from '../../collect.js';
import type { Command } from 'commander';
import { CONFERENCE_LIST } from '../../../contract/list-specs.js';
import { operationMeta } from '../../../contract/operations-meta.js';
import { readData } from '../../body.js';
import { addFromFileOptions, type FromFileOptions, fromFileOptions, runFromFile } from '../../bulk/command.js';
import { apiClient, type CliContext, globalOptions, type GlobalOptions, UsageError } from '../../context.js';
import { listWriter, renderValue } from '../../output/index.js';
import { addCommonFlags, createBodyFromFlags, missingFlags, parseAttendee, readAttendeesData, updateBodyFromFlags } from './body.js';
import { ATTENDEE_REMOVE, CONFERENCE_DELETE, type DeleteOptions, runDelete } from './delete.js';
import { promptMissing } from './prompt.js';
import { addEditOption, runUpdate, UPDATE_HELP, type UpdateOptions, type UpdateSpec } from '../../edit/update.js';
import { addGetCommand, addListOptions, type Flags, idArg, type ItemOptions, type ListOptions, listOptions, runGet, runList, runWrite, withExample, type WriteOptions } from '../resource.js';
import { examples } from '../../help.js';
import { addJoinLinkCommand, type JoinLinkOptions, runJoinLink } from './join-link.js';

/** The flags of the conference commands, beside the field flags `createBodyFromFlags`/`updateBodyFromFlags` read. */
type ConferenceFlags = Flags<{ data?: string; edit?: boolean; yes?: boolean; attendee?: string[] }>;

/** Table columns of conference lists when no --fields is given. */
export const CONFERENCE_TABLE_COLUMNS = ['id', 'public_id', 'title', 'is_public', 'started_at', 'ended_at'];

/** Table columns of attendee lists when no --fields is given. */
export const ATTENDEE_COLUMNS = ['id', 'name', 'email', 'attendee_type', 'attendee_id', 'joined_at'];

export interface AttendeesAddOptions {
  params: { online_conference_id: string };
  /** From `--attendee` flags, appended after the `--data` array. */
  attendees: Array<{ name: string; email: string }>;
  data?: string;
  globals: GlobalOptions;
}

export interface ConferencesRunners {
  list(opts: ListOptions): Promise<void>;
  create(opts: WriteOptions): Promise<void>;
  get(opts: ItemOptions): Promise<void>;
  update(opts: UpdateOptions): Promise<void>;
  delete(opts: DeleteOptions): Promise<void>;
  attendeesList(opts: ListOptions): Promise<void>;
  attendeesAdd(opts: AttendeesAddOptions): Promise<void>;
  attendeesRemove(opts: DeleteOptions): Promise<void>;
  attendeesAddFromFile(opts: FromFileOptions & { params: { online_conference_id: string } }): Promise<void>;
  attendeesJoinLink(opts: JoinLinkOptions): Promise<void>;
}

/**
 * Create: `--data` first, flags over it; then the four required fields are asked for on a
 * terminal, or (in a pipe, or with `--data -` holding stdin) named in one exit-2 error before
 * any request is made.
 */
export async function runCreate(opts: WriteOptions, ctx: CliContext): Promise<void> {
  const body = { ...(opts.data !== undefined ? await readData(opts.data, ctx.streams.stdin) : {}), ...opts.body };
  const missing = missingFlags(body);
  if (missing.length) {
    if (!ctx.streams.canPrompt || opts.data === '-') {
      throw new UsageError(`missing required flags: ${missing.join(', ')}`, 'give them as flags or in --data; prompts need a terminal on stdin and stdout');
    }
    await promptMissing(body, ctx, (await apiClient(ctx, opts.globals)).client);
  }
  await runWrite('createConference', { ...opts, body, data: undefined }, ctx);
}

/** Adds attendees and prints the attendees the API returns (a list; the envelope with `--raw`). */
export async function runAttendeesAdd(opts: AttendeesAddOptions, ctx: CliContext): Promise<void> {
  const body = [...(opts.data !== undefined ? await readAttendeesData(opts.data, ctx.streams.stdin) : []), ...opts.attendees];
  if (!body.length) throw new UsageError('no attendees given', 'give --attendee "Name <email>" (repeatable) or --data JSON array');
  const { client, format } = await apiClient(ctx, opts.globals, 'addConferenceAttendees');
  const res = await client.call('addConferenceAttendees', { params: opts.params, body });
  if (opts.globals.dryRun) return;
  if (opts.globals.raw) return renderValue(ctx.streams, res, format === 'yaml' ? 'yaml' : 'json', opts.globals.query);
  const writer = listWriter(ctx.streams, { format, fields: opts.globals.fields, columns: ATTENDEE_COLUMNS, query: opts.globals.query, resource: 'OnlineConferenceAttendee' });
  await writer.write(res.data);
  await writer.end();
}

/** A conference update sends both writable fields; given both, it sends them without reading the conference. */
export const CONFERENCE_UPDATE: UpdateSpec = {
  get: 'getConference',
  update: 'updateConference',
  noun: 'conference',
  writable: ['title', 'is_public'],
  flag: (key) => (key === 'is_public' ? '--public or --private' : '--title'),
  givers: '--title, --public or --private, --data or --edit',
};

/** Help of the two deleting commands (see `conferences-delete.ts`). */
const CONFIRM_HELP = 'asks for confirmation on a terminal; needs --yes in a script';
const YES_HELP = 'delete without asking (required when stdin or stdout is not a terminal)';

/** Registers `conferences`; `runF` replaces the runners in parse-only tests. */
export function register(program: Command, ctx: CliContext, runF: Partial<ConferencesRunners> = {}): void {
  const run: ConferencesRunners = {
    list: (o) => runList('listConferences', o, ctx, CONFERENCE_TABLE_COLUMNS),
    create: (o) => runCreate(o, ctx),
    get: (o) => runGet('getConference', o, ctx),
    update: (o) => runUpdate(CONFERENCE_UPDATE, o, ctx),
    delete: (o) => runDelete(CONFERENCE_DELETE, o, ctx),
    attendeesList: (o) => runList('listConferenceAttendees', o, ctx, ATTENDEE_COLUMNS),
    attendeesAdd: (o) => runAttendeesAdd(o, ctx),
    attendeesRemove: (o) => runDelete(ATTENDEE_REMOVE, o, ctx),
    // One attendee per request, in file order: the server caps attendees per conference, so the
    // records past the maximum fail alone (409) and are reported with their lines.
    attendeesAddFromFile: (o) =>
      runFromFile(o, { operation: 'addConferenceAttendees', verb: 'added', columns: ATTENDEE_COLUMNS, send: async (client, record) => (await client.call('addConferenceAttendees', { params: o.params, body: [record] })).data[0] }, ctx),
    attendeesJoinLink: (o) => runJoinLink(o, ctx),
    ...runF,
  };
  const conferences = program
    .command('conferences')
    .description('List, create, show, update and delete online conferences; list, add and remove attendees')
    .addHelpText('after', examples(operationMeta('listConferences').cli.example, operationMeta('getConference').cli.example, operationMeta('listConferenceAttendees').cli.example));
  const confId = (id: string) => ({ online_conference_id: idArg(id, 'conference_id') });

  withExample(addListOptions(conferences.command('list').description(operationMeta('listConferences').summary), CONFERENCE_LIST), 'listConferences').action(
    (flags: Flags, cmd: Command) => run.list(listOptions(flags, globalOptions(cmd), CONFERENCE_LIST)),
  );

  const create = conferences
    .command('create')
    .description(`${operationMeta('createConference').summary}; asks for missing account, public id, title and visibility on a terminal`)
    .option('--account <id>', 'online conference account id')
    .option('--public-id <id>', 'public id: letters, digits, - and _ (default when asked: from the title)')
    .option('--backer-event <id>', 'calendar event id backing the conference')
    .option('--attendee <"Name <email>">', 'attendee to invite, "Name <email>" or a bare e-mail (repeatable, at most 5)', collect);
  withExample(addCommonFlags(create), 'createConference').action((flags: ConferenceFlags, cmd: Command) =>
    run.create({ params: {}, body: createBodyFromFlags(flags), data: flags.data, globals: globalOptions(cmd) }),
  );

  addGetCommand(conferences, 'getConference', 'conference_id', run.get, 'online_conference_id');

  const update = conferences
    .command('update')
    .description(`${operationMeta('updateConference').summary}; ${UPDATE_HELP} (given both --title and --public/--private, it sends them without reading)`)
    .argument('<conference_id>');
  withExample(addEditOption(addCommonFlags(update)), 'updateConference').action((id: string, flags: ConferenceFlags, cmd: Command) =>
    run.update({ params: confId(id), body: updateBodyFromFlags(flags), data: flags.data, edit: Boolean(flags.edit), globals: globalOptions(cmd) }),
  );

  const del = conferences
    .command('delete')
    .description(`${operationMeta('deleteConference').summary}; ${CONFIRM_HELP}`)
    .argument('<conference_id>')
    .option('-y, --yes', YES_HELP);
  withExample(del, 'deleteConference').action((id: string, flags: ConferenceFlags, cmd: Command) =>
    run.delete({ params: confId(id), yes: Boolean(flags.yes), globals: globalOptions(cmd) }),
  );

  const attendees = conferences
    .command('attendees')
    .description('List, add and remove attendees of an online conference; make join links')
    .addHelpText(
      'after',
      examples(operationMeta('listConferenceAttendees').cli.example, operationMeta('addConferenceAttendees').cli.example, operationMeta('removeConferenceAttendee').cli.example, operationMeta('createAttendeeJoinToken').cli.example),
    );
  const list = attendees.command('list').description(operationMeta('listConferenceAttendees').summary).argument('<conference_id>');
  withExample(addListOptions(list), 'listConferenceAttendees').action((id: string, flags: Flags, cmd: Command) =>
    run.attendeesList(listOptions(flags, globalOptions(cmd), undefined, confId(id))),
  );

  const add = attendees
    .command('add')
    .description(`${operationMeta('addConferenceAttendees').summary}; prints the attendees returned`)
    .argument('<conference_id>')
    .option('--attendee <"Name <email>">', 'attendee to add, "Name <email>" or a bare e-mail (repeatable)', collect)
    .option('--data <json>', 'JSON array of {"name","email"}, @FILE or - for stdin');
  addFromFileOptions(add, { concurrency: false });
  withExample(add, 'addConferenceAttendees').action((id: string, flags: ConferenceFlags, cmd: Command) => {
    const attendees = (flags.attendee ?? []).map(parseAttendee);
    const globals = globalOptions(cmd);
    const others = [...(attendees.length ? ['--attendee'] : []), ...(flags.data !== undefined ? ['--data'] : [])];
    const bulk = fromFileOptions(flags, globals, others, 1);
    if (bulk) return run.attendeesAddFromFile({ ...bulk, params: confId(id) });
    return run.attendeesAdd({ params: confId(id), attendees, data: flags.data, globals });
  });

  const removeAttendee = attendees
    .command('remove')
    .description(`${operationMeta('removeConferenceAttendee').summary}; ${CONFIRM_HELP}`)
    .argument('<conference_id>')
    .argument('<attendee_id>')
    .option('-y, --yes', YES_HELP);
  withExample(removeAttendee, 'removeConferenceAttendee').action((id: string, attendee: string, flags: ConferenceFlags, cmd: Command) =>
    run.attendeesRemove({
      params: { ...confId(id), online_conference_attendee_id: idArg(attendee, 'attendee_id') },
      yes: Boolean(flags.yes),
      globals: globalOptions(cmd),
    }),
  );

  addJoinLinkCommand(attendees, run.attendeesJoinLink);
}

