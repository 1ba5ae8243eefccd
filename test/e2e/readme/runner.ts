import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Section } from './extract.js';

/**
 * Runs a manual section's commands (the README's or a guide's) in order in one bash (so files
 * and shell variables carry from one command to the next), each with stdin from /dev/null and
 * `pipefail`, its output kept apart. The section stops at the first command whose exit code is
 * not the one it states.
 */

export interface Step {
  command: Command;
  exit: number;
  output: string;
}

export interface SectionRun {
  steps: Step[];
  /** The first command that did not end as stated; `exit` undefined when it never finished. */
  failure?: { command: Command; exit?: number; output: string; shell: string };
}

export interface RunOptions {
  /** The working directory the commands run in (fixtures already copied there). */
  cwd: string;
  /** A directory of the runner's own (script, per-command output); not the working directory. */
  scratch: string;
  env: NodeJS.ProcessEnv;
  /** Fills placeholders in a command's text before it runs. */
  substitute?: (text: string) => string;
  /** How long one command may run (default 60 s). */
  commandTimeoutMs?: number;
  /** False when serve runs on PostgreSQL: the `sh data-dir` blocks are left out. */
  onDataDir?: boolean;
}

const OUTPUT_LIMIT = 4000;

/** The commands of the section's blocks that run; without `onDataDir`, not those of `sh data-dir` blocks. */
export function runnableCommands(section: Section, onDataDir = true): Command[] {
  return section.blocks.filter((b) => b.runs && (onDataDir || !b.dataDirOnly)).flatMap((b) => b.commands);
}

export async function runSection(section: Section, options: RunOptions): Promise<SectionRun> {
  const commands = runnableCommands(section, options.onDataDir);
  mkdirSync(options.scratch, { recursive: true });
  const script = join(options.scratch, 'section.sh');
  writeFileSync(script, buildScript(commands, options.substitute ?? ((t) => t)));
  const shell = await runBash(script, options);

  const statusFile = join(options.scratch, 'status');
  const codes = existsSync(statusFile) ? readFileSync(statusFile, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
  const steps: Step[] = codes.map((exit, i) => ({ command: commands[i], exit, output: readOutput(options.scratch, i) }));
  const wrong = steps.find((s) => s.exit !== s.command.expectedExit);
  if (wrong) return { steps, failure: { ...wrong, shell } };
  if (steps.length < commands.length) {
    const i = steps.length;
    return { steps, failure: { command: commands[i], output: readOutput(options.scratch, i), shell } };
  }
  return { steps };
}

/** One failure as a readable report: document, section, line, command, exit codes, output. */
export function describeFailure(section: Section, run: SectionRun): string {
  const f = run.failure;
  if (!f) return '';
  const ended = f.exit === undefined
    ? 'did not finish (the shell stopped or timed out)'
    : `exited ${f.exit}, expected ${f.command.expectedExit}${f.command.expectedExit === 0 ? '' : ` (stated as "# exit ${f.command.expectedExit}")`}`;
  return [
    `${section.doc} section "${section.title}" (line ${section.line}), example at ${section.doc} line ${f.command.line}:`,
    `  $ ${f.command.text.replace(/\n/g, '\n    ')}`,
    `  ${ended}`,
    ...(f.exit === 127 ? ['  (127: a command was not found; install the tool, or fence the block sh no-test saying why)'] : []),
    '--- its output (stdout and stderr) ---',
    f.output || '(none)',
    ...(f.shell.trim() ? ['--- the shell said ---', f.shell.trim()] : []),
  ].join('\n');
}

function buildScript(commands: Command[], substitute: (text: string) => string): string {
  const parts = ['set -o pipefail'];
  commands.forEach((c, i) => {
    parts.push(
      `# line ${c.line}`,
      '{',
      substitute(c.text),
      `} >"$README_STEPS/${i}.out" 2>&1 </dev/null`,
      '__readme_exit=$?',
      'echo "$__readme_exit" >>"$README_STEPS/status"',
      `[ "$__readme_exit" -eq ${c.expectedExit} ] || exit 0`,
    );
  });
  return parts.join('\n') + '\n';
}

function readOutput(scratch: string, i: number): string {
  const file = join(scratch, `${i}.out`);
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  return text.length > OUTPUT_LIMIT ? `${text.slice(0, OUTPUT_LIMIT)}\n… (${text.length - OUTPUT_LIMIT} more characters)` : text;
}

/**
 * Runs the script in its own process group. A command that runs longer than the command timeout
 * (a server, a prompt, a hang) stops the group; so does the script's end, so nothing an example
 * left in the background outlives it.
 */
function runBash(script: string, options: RunOptions): Promise<string> {
  const limit = options.commandTimeoutMs ?? 60_000;
  const statusFile = join(options.scratch, 'status');
  return new Promise((done, fail) => {
    const child = spawn('bash', ['--noprofile', '--norc', script], {
      cwd: options.cwd,
      env: { ...options.env, README_STEPS: options.scratch },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    let said = '';
    child.stdout.on('data', (d) => (said += d));
    child.stderr.on('data', (d) => (said += d));
    let progress = -1;
    let since = Date.now();
    const watch = setInterval(() => {
      const size = existsSync(statusFile) ? statSync(statusFile).size : 0;
      if (size !== progress) {
        progress = size;
        since = Date.now();
      } else if (Date.now() - since > limit) {
        said += `\n(stopped: a command ran longer than ${limit} ms; a long-running example belongs in a sh no-test block)`;
        stop();
      }
    }, 100);
    child.on('error', fail);
    child.on('exit', stop);
    child.on('close', () => {
      clearInterval(watch);
      done(said);
    });
  });
}

