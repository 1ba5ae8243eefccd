import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/cli/context.js';
import { type Fake, fake, JSON_HEADERS, ORIGIN, page, SECRET, TEXT_HEADERS } from './helpers.js';

let f: Fake;
afterEach(() => rmSync(f.configDir, { recursive: true, force: true }));

/** Answers questions in turn (`undefined` = Enter, taking the default) and records each with its default. */
function scripted(answers: (string | undefined)[]): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = (q: { message: string; default?: string }) => {
    asked.push(q.default === undefined ? q.message : `${q.message} [${q.default}]`);
    if (!answers.length) return Promise.reject(new Error(`unexpected prompt: ${q.message}`));
    return Promise.resolve(answers.shift() ?? q.default ?? '');
  };
  return { asked, input: next, password: next };
}

const check = (status: number, body: unknown, headers = JSON_HEADERS) =>
  f.agent.get(ORIGIN).intercept({ path: '/api/public/v2.0/users?page_size=1', method: 'GET' }).reply(status, body as object, headers);

describe('login after a failed check', () => {
  it('on a terminal, offers to retry with the answers typed so far as defaults', async () => {
    // name, domain, key id, secret; then: retry? (Enter = yes), domain (Enter), key id (typed anew), secret (Enter keeps it).
    const prompter = scripted(['acme', 'acme.test', 'ak_typo', SECRET, undefined, undefined, 'ak_right', '']);
    f = fake({ tty: true, prompter });
    check(401, 'Invalid or missing access key.', TEXT_HEADERS);
    check(200, page([]));
    expect(await f.run(['login'])).toBe(0);
    expect(prompter.asked).toEqual([
      'Profile name [default]',
      'Tenant domain (or a base URL starting with http)',
      'Access key id',
      'Access key secret',
      'Try again? Your answers are kept as defaults (Y/n) [Y]',
      'Tenant domain (or a base URL starting with http) [acme.test]',
      'Access key id [ak_typo]',
      'Access key secret (Enter keeps the one typed before)',
    ]);
    expect(f.stderr()).toContain('Invalid or missing access key.');
    expect((await f.ctx.config()).get('acme')).toEqual({ domain: 'acme.test', key_id: 'ak_right', secret: SECRET, secret_store: 'file' });
  });

  it('answering no ends with the error and saves nothing', async () => {
    f = fake({ tty: true, prompter: scripted(['acme', 'acme.test', 'ak_x', SECRET, 'n']) });
    check(401, 'Invalid or missing access key.', TEXT_HEADERS);
    expect(await f.run(['login'])).toBe(3);
    expect((await f.ctx.config()).list()).toEqual([]);
  });

  it('a domain that cannot be reached over https names --base-url http://', async () => {
    f = fake({ stdin: `${SECRET}\n` });
    // No interceptor for https://localhost:8080: the connection fails as a network error.
    expect(await f.run(['login', '--domain', 'localhost:8080', '--key-id', 'ak_x', '--secret-stdin'])).toBe(8);
    expect(f.stderr()).toContain('error: cannot reach https://localhost:8080');
    expect(f.stderr()).toContain('hint: if localhost:8080 speaks plain http (a local \'confctl serve\' does), give --base-url http://localhost:8080/api/public/v2.0 instead of --domain');
    expect((await f.ctx.config()).list()).toEqual([]);
  });
});
