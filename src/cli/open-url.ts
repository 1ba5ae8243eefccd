/**
 * Opening a URL in the user's browser (`--open`): `open` on macOS, `start` (through cmd) on
 * Windows, `xdg-open` elsewhere. The command runs detached, its output ignored; only a failure to
 * start it (not installed) is reported.
 */
import { spawn } from 'node:child_process';
import type { Env } from '../config/profiles.js';
import type { Streams } from './context.js';

/** Opens `url` in a browser; rejects when the opener cannot be started. */
export type UrlOpener = (url: string) => Promise<void>;

/** The opener command and arguments for a platform. */
export function openerCommand(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` is a cmd built-in; its first quoted argument is the window title, hence the "".
  if (platform === 'win32') return { command: 'cmd', args: ['/d', '/s', '/c', 'start', '""', `"${url}"`] };
  return { command: 'xdg-open', args: [url] };
}

/** The real opener of this process. */
export function systemOpener(platform: NodeJS.Platform = process.platform): UrlOpener {
  return (url) =>
    new Promise((resolve, reject) => {
      const { command, args } = openerCommand(platform, url);
      const child = spawn(command, args, { detached: true, stdio: 'ignore', windowsVerbatimArguments: platform === 'win32' });
      child.once('error', reject);
      child.once('spawn', () => {
        child.unref();
        resolve();
      });
    });
}

/**
 * Why a browser cannot be opened here, or undefined when it can: not from a pipe (stdout is not
 * a terminal: a script wants the text, not a window), nor on a Unix without a graphical display
 * (`DISPLAY` or `WAYLAND_DISPLAY`).
 */
export function cannotOpenReason(streams: Pick<Streams, 'stdoutIsTTY'>, env: Env, platform: NodeJS.Platform = process.platform): string | undefined {
  if (!streams.stdoutIsTTY) return 'output is not a terminal';
  if (platform !== 'darwin' && platform !== 'win32' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no graphical display (DISPLAY and WAYLAND_DISPLAY are unset)';
  return undefined;
}
