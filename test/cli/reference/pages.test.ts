/**
 * The command reference's pages: one Markdown page and one man page per visible command, with
 * what that command's --help says (usage, options with defaults, examples) and its exit codes
 * from the one declaration that its help also prints.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GENERAL_EXIT_CODES } from '../../../src/cli/exit-codes.js';
import { referenceDrift, referenceFiles, writeReference } from '../../../src/cli/reference/files.js';
import { helpSections } from '../../../src/cli/reference/help-text.js';
import { manFile, manPage } from '../../../src/cli/reference/man.js';
import { markdownFile, markdownPage } from '../../../src/cli/reference/markdown.js';
import { type CommandDoc, commandDocs } from '../../../src/cli/reference/model.js';
import { tempDir } from '../../tmp.js';
import { fake } from '../helpers.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/** What `confctl ARGS --help` prints. */
async function help(args: string[]): Promise<string> {
  const f = fake();
  expect(await f.run([...args, '--help'])).toBe(0);
  return f.stdout();
}

const hasGroff = () => spawnSync('groff', ['--version']).status === 0;

/** The `$ ` lines of a help text. */
const exampleLines = (text: string) => text.split('\n').filter((l) => l.startsWith('  $ ')).map((l) => l.slice(4));

let docs: CommandDoc[];
let files: Map<string, string>;
beforeAll(async () => {
  docs = await commandDocs();
  files = await referenceFiles();
});
const doc = (line: string) => docs.find((d) => d.path.join(' ') === line)!;

describe('the pages', () => {
  it('one Markdown page and one man page per command, program and groups included, plus the index', () => {
    const paths = docs.map((d) => d.path.join(' '));
    expect(paths).toEqual(expect.arrayContaining(['', 'users', 'users list', 'admin tenants add', 'conferences attendees join-link', 'wait user']));
    expect(paths).not.toContain('profile names'); // hidden
    expect(paths.some((p) => p.endsWith('help'))).toBe(false);
    expect(files.size).toBe(2 * docs.length + 1);
    expect(files.has('docs/commands/confctl_users_list.md')).toBe(true);
    expect(files.has('docs/commands/confctl_admin_tenants_add.md')).toBe(true);
    expect(files.has('man/confctl-users-list.1')).toBe(true);
    expect(files.has('man/confctl.1')).toBe(true);
    const index = files.get('docs/commands/README.md')!;
    for (const d of docs) expect(index).toContain(`(${markdownFile(d.path)})`);
  });

  it('a page has the usage, the options with their defaults and choices, and the examples of --help', async () => {
    const text = await help(['webhooks', 'listen']);
    const page = files.get('docs/commands/confctl_webhooks_listen.md')!;
    expect(page).toContain('```text\nconfctl webhooks listen [options]\n```');
    expect(page).toMatch(/- `--port <port>`: .*\(default: "8090"\)/);
    expect(page).toMatch(/- `-o, --output <format>`: .*\(choices: "table", "json", "yaml", "csv", "ndjson"\)/);
    const examples = exampleLines(text);
    expect(examples.length).toBeGreaterThan(1);
    expect(page).toContain(['## Examples', '', '```text', ...examples.map((e) => `$ ${e}`), '```'].join('\n'));
    const man = files.get('man/confctl-webhooks-listen.1')!;
    expect(man).toContain('.TP\n\\fB\\-\\-port <port>\\fR\n');
    expect(man).toContain('(default: "8090")');
  });

  it("every command's examples are those its --help shows, and every leaf has one", async () => {
    for (const d of docs.filter((x) => x.path.length)) {
      expect(d.examples, d.path.join(' ')).toEqual(exampleLines(await help(d.path)));
      if (!d.subcommands.length) expect(d.examples.length, d.path.join(' ')).toBeGreaterThan(0);
    }
  });

  it("a command's own exit codes come from the declaration its --help prints too (wait: 9, 124; plan: 2)", async () => {
    const waitHelp = await help(['wait', 'conference']);
    expect(waitHelp).toMatch(/\nExit codes:\n {2}0 {4}the condition holds\n {2}9 {4}a --fail-on condition holds \(checked first\)\n {2}124 {2}--max-wait passed before the condition held\n/);
    expect(doc('wait conference').exitCodes.map((n) => n.code)).toEqual([0, 9, 124, 4]);
    const page = files.get('docs/commands/confctl_wait_conference.md')!;
    expect(page).toContain('| 124 | --max-wait passed before the condition held |');
    expect(page).toContain('| 9 | a --fail-on condition holds (checked first) |');
    expect(files.get('man/confctl-wait-conference.1')).toContain('.TP\n\\fB124\\fR\n\\-\\-max\\-wait passed before the condition held\n');

    expect(await help(['plan'])).toContain('\nExit codes:\n  0  with --detailed-exitcode: nothing to change\n  2  with --detailed-exitcode: there are changes\n');
    expect(files.get('docs/commands/confctl_plan.md')).toContain('| 2 | with --detailed-exitcode: there are changes |');
  });

  it('every page lists the exit codes of every command; the Exit codes text of help is not repeated as a note', () => {
    for (const [path, text] of files) {
      if (path.endsWith('.md')) for (const n of GENERAL_EXIT_CODES) expect(text, path).toContain(`| ${n.code} | `);
      expect(text, path).not.toMatch(/Other codes as for every command/);
    }
  });

  it('Markdown pages fence usage and examples as text, never as runnable sh', () => {
    for (const [path, text] of files) if (path.endsWith('.md')) expect(text.match(/^```\S*$/gm)?.filter((f) => f !== '```text' && f !== '```') ?? [], path).toEqual([]);
  });

  it('the same on every machine: no paths of this one, no date, whatever the terminal and environment', async () => {
    for (const [path, text] of files) {
      expect(text, path).not.toContain(ROOT);
      if (path.startsWith('man/')) expect(text.split('\n')[0], path).toMatch(/^\.TH "[A-Z\\-]+" "1" "" "confctl" "confctl manual"$/);
    }
    const before = { ...process.env };
    Object.assign(process.env, { COLUMNS: '33', CONFCTL_PROFILE: 'other', FORCE_COLOR: '1' });
    try {
      expect(await referenceFiles()).toEqual(files);
    } finally {
      for (const key of ['COLUMNS', 'CONFCTL_PROFILE', 'FORCE_COLOR']) if (before[key] === undefined) delete process.env[key];
      else process.env[key] = before[key];
    }
  });
});

describe('escaping', () => {
  const sample: CommandDoc = {
    path: ['demo', 'run'],
    usage: 'confctl demo run [options]',
    description: 'Run *all* of it — fast_ish, for <name> ~ now',
    arguments: [],
    options: [{ term: '--filter <expr>', description: "e.g. 'email~@acme.com' or `a|b`" }],
    globalOptions: [],
    subcommands: [],
    exitCodes: [],
    examples: ['confctl demo run --filter "a|b"'],
    notes: [[{ verbatim: false, lines: ['.starts with a dot', '- not a list', "'quoted"] }]],
  };

  it('Markdown: emphasis, tags and strike-through escaped outside code spans; a prose line is no list', () => {
    const page = markdownPage(sample);
    expect(page).toContain('Run \\*all\\* of it — fast_ish, for \\<name> \\~ now');
    expect(page).toContain("- `--filter <expr>`: e.g. 'email\\~@acme.com' or `a|b`");
    expect(page).toContain('\n\\- not a list\n');
    expect(page).toContain('```text\n$ confctl demo run --filter "a|b"\n```');
  });

  it('roff: hyphens and backslashes escaped, a leading dot or quote is no request, non-ASCII as \\[u....]', () => {
    const man = manPage(sample);
    expect(man.split('\n')[0]).toBe('.TH "CONFCTL\\-DEMO\\-RUN" "1" "" "confctl" "confctl manual"');
    expect(man).toContain('\\fB\\-\\-filter <expr>\\fR');
    expect(man).toContain('Run *all* of it \\[u2014] fast_ish');
    expect(man).toContain('\n\\&.starts with a dot\n');
    expect(man).toContain("\n\\&'quoted\n");
    expect(manFile(sample.path)).toBe('confctl-demo-run.1');
  });

  it.runIf(hasGroff())('every man page formats without a groff warning', () => {
    const dir = tempDir();
    const pages = [...files].filter(([path]) => path.startsWith('man/')).map(([path, text]) => {
      writeFileSync(join(dir, path.slice(4)), text);
      return join(dir, path.slice(4));
    });
    const warnings = spawnSync('groff', ['-man', '-ww', '-z', ...pages], { encoding: 'utf8' }).stderr;
    expect(warnings).toBe('');
  });
});

describe('help text read back', () => {
  it('examples, notes (verbatim where indented) and no Exit codes list', () => {
    const text = '\nSome prose\non two lines.\n\nInstall:\n  bash  $ x\n\nExit codes:\n  0  fine\nOther codes.\n\nExamples:\n  $ confctl a\n  $ confctl b   # c\n\n';
    expect(helpSections(text)).toEqual({
      examples: ['confctl a', 'confctl b   # c'],
      notes: [[{ verbatim: false, lines: ['Some prose', 'on two lines.'] }], [{ verbatim: false, lines: ['Install:'] }, { verbatim: true, lines: ['bash  $ x'] }]],
    });
  });
});

describe('npm run docs:gen (writeReference)', () => {
  it('writes the pages and package.json\'s "man" after "bin", removes the page of a command that is gone, and then nothing drifts', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'package.json'), `${JSON.stringify({ name: 'x', bin: { x: 'x.js' }, files: ['man'] }, null, 2)}\n`);
    mkdirSync(join(root, 'man'));
    writeFileSync(join(root, 'man', 'confctl-gone.1'), '.TH GONE 1\n');
    expect(await referenceDrift(root)).toEqual(expect.arrayContaining(['man/confctl-gone.1: no such command any more', 'docs/commands/confctl_users_list.md: missing', 'package.json: "man" does not list the man pages']));
    expect(await writeReference(root)).toBe(files.size + 1);
    expect(await referenceDrift(root)).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(manifest)).toEqual(['name', 'bin', 'man', 'files']);
    expect(manifest.man).toEqual([...files.keys()].filter((p) => p.startsWith('man/')).sort());
    expect(readFileSync(join(root, 'man', 'confctl-users-list.1'), 'utf8')).toBe(files.get('man/confctl-users-list.1'));
    expect(await writeReference(root)).toBe(0);
  });
});
