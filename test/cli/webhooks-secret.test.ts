import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMaxAge, secretFrom } from '../../src/cli/commands/webhooks/secret.js';
import { tempDir } from '../tmp.js';

describe('the webhook secret', () => {
  it('--secret-file: its first line, trimmed (CRLF too)', () => {
    const file = join(tempDir(), 'hook.secret');
    writeFileSync(file, 'whsec_abc \r\nsecond line\r\n');
    expect(secretFrom({ secretFile: file }, {})).toEqual({ secret: 'whsec_abc', from: 'file' });
  });

  it('flags win over CONFCTL_WEBHOOK_SECRET; an empty variable counts as unset; both flags are refused', () => {
    expect(secretFrom({ secret: 'f' }, { CONFCTL_WEBHOOK_SECRET: 'e' })).toEqual({ secret: 'f', from: 'flag' });
    expect(secretFrom({}, { CONFCTL_WEBHOOK_SECRET: '' })).toEqual({ from: 'none' });
    expect(() => secretFrom({ secret: 'a', secretFile: 'b' }, {})).toThrow('give --secret or --secret-file, not both');
  });

  it('an empty secret file is refused without printing anything of it', () => {
    const file = join(tempDir(), 'empty.secret');
    writeFileSync(file, '\n');
    expect(() => secretFrom({ secretFile: file }, {})).toThrow(`--secret-file ${file} is empty`);
  });
});

describe('--max-age', () => {
  it('whole seconds, 300 by default, 0 allowed', () => {
    expect(parseMaxAge(undefined)).toBe(300);
    expect(parseMaxAge('0')).toBe(0);
    expect(() => parseMaxAge('1.5')).toThrow(/whole number/);
  });
});
