import { execFileSync } from 'node:child_process';

/** True when tmux is on the PATH (CI installs it; see .ci/run). */
export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * A real terminal for one command: a detached tmux session on a private server socket. The
 * command's exit code is printed as `EXIT=N` on the screen when it ends. With `record`, every
 * byte the command writes to the terminal (carriage returns of a progress line included) is also
 * appended to that file; the command starts only once the recording has.
 */
export class TmuxTerminal {
  private readonly socket = `confctl-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  constructor(argv: string[], env: Record<string, string>, options: { record?: string } = {}) {
    const envArgs = Object.entries(env).map(([k, v]) => quote(`${k}=${v}`)).join(' ');
    const run = `env ${envArgs} ${argv.map(quote).join(' ')}; echo EXIT=$?; sleep 600`;
    // A tmux wait-for channel holds the command back until pipe-pane records (a signal sent first is remembered).
    const command = options.record ? `tmux -L ${this.socket} wait-for recording; ${run}` : run;
    this.tmux('new-session', '-d', '-s', 'main', '-x', '120', '-y', '40', command);
    if (options.record) {
      this.tmux('pipe-pane', '-t', 'main', `cat >> ${quote(options.record)}`);
      this.tmux('wait-for', '-S', 'recording');
    }
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The visible screen, trailing blank lines dropped. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-t', 'main').replace(/\s+$/, '');
  }

  /** Types keys (tmux key names such as `Enter`, `Down`, or literal text). */
  send(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...keys);
  }

  /** Waits until the screen matches `pattern`; fails with the screen when it does not in time. */
  async waitFor(pattern: RegExp, timeoutMs = 10_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const text = this.screen();
      if (pattern.test(text)) return text;
      if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; screen:\n${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}
