import { afterEach, describe, expect, it } from 'vitest';
import type { ChoicePrompter } from '../../src/cli/commands/conferences/prompt.js';
import { type Fake, fake, JSON_HEADERS, ORIGIN, page, TEXT_HEADERS, withProfile } from './helpers.js';

let f: Fake;
afterEach(() => f?.agent.assertNoPendingInterceptors());
const api = () => f.agent.get(ORIGIN);
const P = '/api/public/v2.0';
const CONF = { id: 3, public_id: 'weekly-sync', title: 'Weekly sync', deleted_at: null };
const DELETED = { ...CONF, deleted_at: '2026-03-01T12:00:00.000Z' };
const GRACE = { id: 12, name: 'Grace', email: 'grace@example.com', deleted_at: null };

/** A prompter whose confirm answers `yes`, recording the questions. */
function confirming(yes: boolean) {
  const asked: Array<{ message: string; default?: boolean }> = [];
  const refuse = () => Promise.reject(new Error('unexpected prompt'));
  const prompter: ChoicePrompter = {
    input: refuse,
    password: refuse,
    select: refuse,
    confirm: (q) => (asked.push(q), Promise.resolve(yes)),
  };
  return { prompter, asked };
}

const expectDelete = (path: string, data: unknown) =>
  api().intercept({ path: P + path, method: 'DELETE' }).reply(200, { message: 'Success.', data }, JSON_HEADERS);

describe('conferences delete', () => {
  it('on a terminal names the conference, asks (default no) and deletes when confirmed', async () => {
    const { prompter, asked } = confirming(true);
    f = await withProfile({ tty: true, prompter });
    api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(200, { message: 'Success.', data: CONF }, JSON_HEADERS);
    expectDelete('/online_conferences/3', DELETED);
    expect(await f.run(['conferences', 'delete', '3', '-o', 'json'])).toBe(0);
    expect(asked).toEqual([{ message: 'Delete online conference 3 "Weekly sync" (weekly-sync)?', default: false }]);
    expect(JSON.parse(f.stdout())).toMatchObject({ id: 3, deleted_at: DELETED.deleted_at });
  });

  it('declined: nothing sent, exit 2', async () => {
    const { prompter } = confirming(false);
    f = await withProfile({ tty: true, prompter });
    api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(200, { message: 'Success.', data: CONF }, JSON_HEADERS);
    expect(await f.run(['conferences', 'delete', '3'])).toBe(2);
    expect(f.stderr()).toContain('not confirmed: nothing was deleted');
  });

  it('a key that cannot read still gets asked, naming the id; an absent conference stops before the question (exit 4)', async () => {
    const { prompter, asked } = confirming(true);
    f = await withProfile({ tty: true, prompter });
    api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(401, 'Access denied.', TEXT_HEADERS);
    expectDelete('/online_conferences/3', DELETED);
    expect(await f.run(['conferences', 'delete', '3'])).toBe(0);
    expect(asked.map((q) => q.message)).toEqual(['Delete online conference 3?']);
    api().intercept({ path: `${P}/online_conferences/9`, method: 'GET' }).reply(404, 'Resource object does not exist.', TEXT_HEADERS);
    expect(await f.run(['conferences', 'delete', '9'])).toBe(4);
    expect(asked).toHaveLength(1);
  });

  it('in a script: refuses without --yes (exit 2, a hint, nothing sent); deletes with --yes or -y', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'delete', '3'])).toBe(2);
    expect(f.stderr()).toContain('refusing to delete without confirmation');
    expect(f.stderr()).toContain('add --yes');
    expectDelete('/online_conferences/3', DELETED);
    expect(await f.run(['conferences', 'delete', '3', '--yes', '-o', 'json'])).toBe(0);
    expectDelete('/online_conferences/3', DELETED);
    expect(await f.run(['conferences', 'delete', '-y', '3', '-o', 'json'])).toBe(0);
    // Without any profile the missing --yes is still what it says first.
    f = fake();
    expect(await f.run(['conferences', 'delete', '3'])).toBe(2);
    expect(f.stderr()).toContain('add --yes');
  });

  it('a 409 from the service is exit 5 with its message', async () => {
    f = await withProfile();
    api().intercept({ path: `${P}/online_conferences/3`, method: 'DELETE' }).reply(409, 'Cannot delete an online conference that is in progress.', TEXT_HEADERS);
    expect(await f.run(['conferences', 'delete', '3', '--yes'])).toBe(5);
    expect(f.stderr()).toContain('Cannot delete an online conference that is in progress.');
  });

  it('--dry-run prints the curl line with no body, sends nothing and needs no --yes', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'delete', '3', '--dry-run'])).toBe(0);
    expect(f.stdout()).toBe(`curl -X DELETE ${ORIGIN}${P}/online_conferences/3 -H 'X-Access-Key-Id: ak_test' -H 'X-Access-Key-Secret: ****'\n`);
  });

  it('rejects a bad id before anything else (exit 2)', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'delete', 'abc', '--yes'])).toBe(2);
  });

  it('quotes stored text in the question: a title\'s control characters never reach the terminal raw', async () => {
    const { prompter, asked } = confirming(false);
    f = await withProfile({ tty: true, prompter });
    api().intercept({ path: `${P}/online_conferences/3`, method: 'GET' }).reply(200, { message: 'Success.', data: { ...CONF, title: 'x\u001b[2Jy' } }, JSON_HEADERS);
    expect(await f.run(['conferences', 'delete', '3'])).toBe(2);
    expect(asked[0].message).toBe('Delete online conference 3 "x\\u001b[2Jy" (weekly-sync)?');
  });
});

describe('conferences attendees remove', () => {
  it('on a terminal names the attendee from the attendee list and removes when confirmed', async () => {
    const { prompter, asked } = confirming(true);
    f = await withProfile({ tty: true, prompter });
    api().intercept({ path: `${P}/online_conferences/3/attendees?page_size=100`, method: 'GET' }).reply(200, page([{ id: 1, name: 'Ada', email: 'ada@x.test' }, GRACE]), JSON_HEADERS);
    expectDelete('/online_conferences/3/attendees/12', { ...GRACE, deleted_at: DELETED.deleted_at });
    expect(await f.run(['conferences', 'attendees', 'remove', '3', '12', '-o', 'json'])).toBe(0);
    expect(asked.map((q) => q.message)).toEqual(['Delete attendee 12 "Grace" <grace@example.com> of online conference 3?']);
    expect(JSON.parse(f.stdout())).toMatchObject({ id: 12, deleted_at: DELETED.deleted_at });
  });

  it('an attendee not in the list is named by its ids; the service answers 404 (exit 4)', async () => {
    const { prompter, asked } = confirming(true);
    f = await withProfile({ tty: true, prompter });
    api().intercept({ path: `${P}/online_conferences/3/attendees?page_size=100`, method: 'GET' }).reply(200, page([]), JSON_HEADERS);
    api().intercept({ path: `${P}/online_conferences/3/attendees/99`, method: 'DELETE' }).reply(404, 'Resource object does not exist.', TEXT_HEADERS);
    expect(await f.run(['conferences', 'attendees', 'remove', '3', '99'])).toBe(4);
    expect(asked.map((q) => q.message)).toEqual(['Delete attendee 99 of online conference 3?']);
  });

  it('in a script needs --yes; --dry-run prints the DELETE', async () => {
    f = await withProfile();
    expect(await f.run(['conferences', 'attendees', 'remove', '3', '12'])).toBe(2);
    expect(f.stderr()).toContain('add --yes');
    expectDelete('/online_conferences/3/attendees/12', { ...GRACE, deleted_at: DELETED.deleted_at });
    expect(await f.run(['conferences', 'attendees', 'remove', '3', '12', '--yes', '-o', 'json'])).toBe(0);
    expect(await f.run(['conferences', 'attendees', 'remove', '3', '12', '--dry-run'])).toBe(0);
    expect(f.stdout()).toContain(`curl -X DELETE ${ORIGIN}${P}/online_conferences/3/attendees/12 -H`);
    expect(await f.run(['conferences', 'attendees', 'remove', '3', 'x', '--yes'])).toBe(2);
  });
});
