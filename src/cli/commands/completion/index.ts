/** `confctl completion bash|zsh|fish`: prints a completion script for the shell. */
import { type Command, Argument, Option } from 'commander';
import { examples } from '../../help.js';
import type { CliContext } from '../../context.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The script for `shell`, built from the full command tree. */
export async function completionScript(shell: Shell, program: Command, ctx: CliContext): Promise<string> {
  const { commandTree } = await import('./tree.js');
  const root = await commandTree(program, ctx);
  if (shell === 'fish') return (await import('./fish.js')).fishScript(root);
  const sh = await import('./sh.js');
  return shell === 'zsh' ? sh.zshScript(root) : sh.bashScript(root);
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('completion')
    .description('Print a shell completion script (commands, flags, flag values, profile names)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    // Called by the scripts at completion time for `get`/`update` ids; not for people.
    .addOption(new Option('--ids <noun>', 'print ids of one page of the list, for the completion scripts').hideHelp())
    .addHelpText(
      'after',
      `
Install:
  bash  $ echo 'source <(confctl completion bash)' >> ~/.bashrc
  zsh   $ confctl completion zsh > "\${fpath[1]}/_confctl"    (or: source <(confctl completion zsh) after compinit)
  fish  $ confctl completion fish > ~/.config/fish/completions/confctl.fish
`,
    )
    .addHelpText('after', examples('confctl completion bash > ~/.local/share/bash-completion/completions/confctl   # the per-user directory of bash-completion'))
    .action(async (shell: Shell, flags: { ids?: string }, cmd: Command) => {
      if (flags.ids === undefined) return void ctx.streams.stdout.write(await completionScript(shell, program, ctx));
      const globals = cmd.optsWithGlobals<{ profile?: string; baseUrl?: string; timeout?: string }>();
      const timeoutMs = globals.timeout === undefined ? undefined : Number(globals.timeout) * 1000;
      await (await import('./ids.js')).printIds(ctx, flags.ids, shell, { profile: globals.profile, baseUrl: globals.baseUrl, timeoutMs });
    });
}
