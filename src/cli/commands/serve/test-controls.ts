import { readFileSync } from 'node:fs';
import { CONTROL_PREFIX, CONTROL_TOKEN_HEADER, newControlToken, TOKEN_SHAPE } from '../../../server/index.js';
import { UsageError } from '../../errors.js';

/** `--test-controls` and `--control-token-file`, as parsed (serve/index.ts `parseTestControlFlags`). */
export interface TestControlFlags {
  /** Where the token is read from; absent: a random token, printed at start. */
  tokenFile?: string;
}

/** `--test-controls` and `--control-token-file` as commander hands them over. */
export interface TestControlFlagValues {
  testControls?: boolean;
  controlTokenFile?: string;
}

/**
 * The control token: the content of `--control-token-file` (one line; surrounding whitespace
 * ignored), else a fresh random one. The file's content never appears in an error.
 */
export function controlToken(flags: TestControlFlags): string {
  if (flags.tokenFile === undefined) return newControlToken();
  let text: string;
  try {
    text = readFileSync(flags.tokenFile, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --control-token-file ${flags.tokenFile}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  const token = text.trim();
  if (!TOKEN_SHAPE.test(token)) {
    throw new UsageError(`--control-token-file ${flags.tokenFile} must hold one token of 16 to 512 visible ASCII characters (no spaces)`);
  }
  return token;
}

/** The line `serve` prints at start: where the controls are, and the token unless it came from a file. */
export function controlsLine(origin: string, flags: TestControlFlags, token: string): string {
  const how = flags.tokenFile === undefined ? `${CONTROL_TOKEN_HEADER}: ${token}` : `${CONTROL_TOKEN_HEADER}: the token in ${flags.tokenFile}`;
  return `Test controls on ${origin}${CONTROL_PREFIX} (loopback only), with the header ${how}\n`;
}
