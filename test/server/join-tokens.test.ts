import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endConference, startConference } from '../../src/admin/lifecycle.js';
import { closeGracefully } from '../../src/server/index.js';
import { conferenceSetup, type ConferenceFixture, listen } from './conferences-fixture.js';
import { atOnce } from '../at-once.js';

/**
 * POST …/attendees/{id}/join_token and the join page GET|HEAD /rooms/{public_id}?token= (decisions
 * §11), on a real socket with the fixture's frozen clock.
 */
let f: ConferenceFixture;
let origin: string;
let conf: { id: number; public_id: string };
let ada: number;
let grace: number;

const tokenPath = (c: number, a: number) => `/online_conferences/${c}/attendees/${a}/join_token`;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request to the server on the socket, with an explicit Host (fetch cannot set one). */
function raw(path: string, init: { method?: string; host?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method: init.method ?? 'GET', headers: init.host ? { host: init.host } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A fresh token of `attendee` through the API; returns `data`. */
async function issue(c: number, attendee: number, body: unknown = {}): Promise<{ token: string; join_url: string; expires_at: string }> {
  const res = await f.call('POST', tokenPath(c, attendee), { body });
  expect(res.status, res.body).toBe(200);
  return res.json().data;
}

/** The path and query of a join URL (the host part is the request's, i.e. `localhost`). */
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

beforeAll(async () => {
  f = conferenceSetup();
  origin = await listen(f.app.server);
  conf = f.conference('team-room');
  ada = f.store.attendees.findByEmail(conf.id, 'ada@acme.test')!.id;
  grace = f.store.attendees.insert(conf.id, { email: 'grace@acme.test', name: 'Grace <Hopper> & "co"', attendee_type: null, attendee_id: null }).id;
});
afterAll(async () => {
  await closeGracefully(f.app.server, 1000);
  f.cleanup();
});

describe('POST …/join_token', () => {
  it('answers {token, join_url, expires_at}: an hour by default, the URL on the request origin', async () => {
    const res = await f.call('POST', tokenPath(conf.id, ada), { headers: { host: 'localhost:8080' } });
    expect(res.status).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Success.');
    expect(Object.keys(data)).toEqual(['token', 'join_url', 'expires_at']);
    expect(data.expires_at).toBe('2026-03-01T13:00:00.000Z');
    expect(data.join_url).toBe(`http://localhost:8080/rooms/team-room?token=${data.token}`);
    expect(data.token).toMatch(/^[0-9a-z.]+$/);
  });

  it('takes expiry in whole seconds, 60 to 86400; null means the default', async () => {
    expect((await issue(conf.id, ada, { expiry: 60 })).expires_at).toBe('2026-03-01T12:01:00.000Z');
    expect((await issue(conf.id, ada, { expiry: 86400 })).expires_at).toBe('2026-03-02T12:00:00.000Z');
    expect((await issue(conf.id, ada, { expiry: null })).expires_at).toBe('2026-03-01T13:00:00.000Z');
  });

  it.each([
    [59, 'The expiry field must be between 60 and 86400.'],
    [86401, 'The expiry field must be between 60 and 86400.'],
    [-1, 'The expiry field must be between 60 and 86400.'],
    [60.5, 'The expiry field must be an integer.'],
    ['3600', 'The expiry field must be an integer.'],
    [true, 'The expiry field must be an integer.'],
    [1e300, 'The expiry field must be an integer.'],
  ])('expiry %j → 400 %s', async (expiry, message) => {
    const res = await f.call('POST', tokenPath(conf.id, ada), { body: { expiry } });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ message, errors: { expiry: [message] } });
  });

  it('401 without a key or without online_conferences.update.*', async () => {
    const none = await f.call('POST', tokenPath(conf.id, ada), { key: null });
    expect([none.status, none.body]).toEqual([401, 'Invalid or missing access key.']);
    const readOnly = await f.call('POST', tokenPath(conf.id, ada), { key: f.key(['online_conferences.read.*']) });
    expect([readOnly.status, readOnly.body]).toEqual([401, 'Access denied.']);
  });

  it('404 for an unknown conference, an unknown attendee, or an attendee of another conference', async () => {
    const other = f.conference('other-room');
    const otherAttendee = f.store.attendees.findByEmail(other.id, 'ada@acme.test')!.id;
    for (const path of [tokenPath(999999, ada), tokenPath(conf.id, 999999), tokenPath(conf.id, otherAttendee), tokenPath(conf.id, 0)]) {
      const res = await f.call('POST', path);
      expect([path, res.status, res.body]).toEqual([path, 404, 'Resource object does not exist.']);
    }
  });

  it('validation comes before existence: a bad expiry on an unknown conference is 400', async () => {
    expect((await f.call('POST', tokenPath(999999, ada), { body: { expiry: 1 } })).status).toBe(400);
  });

  it('a running conference still issues tokens; an ended one is 409', async () => {
    const c = f.conference('ending');
    const owner = f.store.attendees.findByEmail(c.id, 'ada@acme.test')!.id;
    atOnce(startConference(f.store, f.tenant.id, c.id, new Date('2026-03-01T11:00:00.000Z')));
    await issue(c.id, owner);
    atOnce(endConference(f.store, f.tenant.id, c.id, new Date('2026-03-01T11:30:00.000Z')));
    const res = await f.call('POST', tokenPath(c.id, owner));
    expect([res.status, res.body]).toEqual([409, 'Cannot modify an online conference that has ended.']);
  });
});

describe('GET /rooms/{public_id}?token=', () => {
  it('serves a UTF-8 HTML page with a strict CSP, the title and name escaped, and the state', async () => {
    const c = f.store.conferences.insert(f.tenant.id, { online_conference_account_id: f.account.id, public_id: 'xss', title: '<script>alert("x")</script> Café', is_public: false });
    const a = f.store.attendees.insert(c.id, { email: 'eve@acme.test', name: "<img src=x onerror='1'>", attendee_type: null, attendee_id: null });
    const page = await raw(local((await issue(c.id, a.id)).join_url));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.body).not.toContain('<script');
    expect(page.body).not.toContain('<img');
    expect(page.body).toContain('<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Café</h1>');
    expect(page.body).toContain('<strong>&lt;img src=x onerror=&#39;1&#39;&gt;</strong>');
    expect(Number(page.headers['content-length'])).toBe(Buffer.byteLength(page.body, 'utf8'));
  });

  it('says waiting, running or ended as the conference goes', async () => {
    const c = f.conference('states');
    const owner = f.store.attendees.findByEmail(c.id, 'ada@acme.test')!.id;
    const path = local((await issue(c.id, owner)).join_url);
    const state = async () => /data-state="([a-z]+)"/.exec((await raw(path)).body)?.[1];
    expect(await state()).toBe('waiting');
    atOnce(startConference(f.store, f.tenant.id, c.id, new Date('2026-03-01T11:00:00.000Z')));
    expect(await state()).toBe('running');
    atOnce(endConference(f.store, f.tenant.id, c.id, new Date('2026-03-01T11:30:00.000Z')));
    expect(await state()).toBe('ended');
  });

  it('HEAD is GET without the body', async () => {
    const path = local((await issue(conf.id, grace)).join_url);
    const get = await raw(path);
    const head = await raw(path, { method: 'HEAD' });
    expect([head.status, head.body, head.headers['content-length'], head.headers['content-type']]).toEqual([200, '', get.headers['content-length'], 'text/html; charset=utf-8']);
    const bad = await raw('/rooms/team-room?token=1.2.3.x', { method: 'HEAD' });
    expect([bad.status, bad.body]).toEqual([403, '']);
  });

  it('403 Invalid token. for a missing, empty or malformed token', async () => {
    for (const query of ['', '?token=', '?token=abc', '?other=1']) {
      const res = await raw(`/rooms/team-room${query}`);
      expect([query, res.status, res.body, res.headers['content-type']]).toEqual([query, 403, 'Invalid token.', 'text/plain; charset=utf-8']);
    }
  });

  it('403 for a token with any character changed, dropped or added', async () => {
    const { token } = await issue(conf.id, grace);
    const path = (t: string) => `/rooms/team-room?token=${encodeURIComponent(t)}`;
    expect((await raw(path(token))).status).toBe(200);
    const variants = new Set<string>();
    for (let i = 0; i < token.length; i++) {
      // Every byte class: digit, lower and upper letter, the separator, and a byte beyond ASCII.
      for (const c of ['0', '7', 'a', 'f', 'F', 'g', '.', '%', 'é']) if (c !== token[i]) variants.add(token.slice(0, i) + c + token.slice(i + 1));
      variants.add(token.slice(0, i) + token.slice(i + 1));
    }
    variants.add(`${token}0`);
    variants.add(`0${token}`);
    variants.add(token.toUpperCase());
    // Fifty at a time: one address may hold 100 connections by default (serve's per-address cap).
    const all = [...variants];
    const refused: number[] = [];
    for (let i = 0; i < all.length; i += 50) refused.push(...(await Promise.all(all.slice(i, i + 50).map(async (t) => (await raw(path(t))).status))));
    expect(refused).toHaveLength(all.length);
    expect(refused.filter((s) => s !== 403)).toEqual([]);
  });

  it('403 once expired (injected clock), 200 one second before', async () => {
    const { join_url } = await issue(conf.id, grace, { expiry: 60 });
    const path = local(join_url);
    const start = f.clock.now;
    try {
      f.clock.now = start + 59_999;
      expect((await raw(path)).status).toBe(200);
      f.clock.now = start + 60_000;
      expect((await raw(path)).status).toBe(403);
    } finally {
      f.clock.now = start;
    }
  });

  it('403 for a token of another conference, on this conference’s page', async () => {
    const other = f.conference('neighbour');
    const owner = f.store.attendees.findByEmail(other.id, 'ada@acme.test')!.id;
    const { token } = await issue(other.id, owner);
    expect((await raw(`/rooms/neighbour?token=${token}`)).status).toBe(200);
    const res = await raw(`/rooms/team-room?token=${token}`);
    expect([res.status, res.body]).toEqual([403, 'Invalid token.']);
  });

  it('a token shows its own attendee only: swapping the attendee id breaks it', async () => {
    const { token } = await issue(conf.id, grace);
    const page = await raw(`/rooms/team-room?token=${token}`);
    expect(page.body).toContain('Grace &lt;Hopper&gt; &amp; &quot;co&quot;');
    const swapped = token.replace(`.${grace}.`, `.${ada}.`);
    expect(swapped).not.toBe(token);
    expect((await raw(`/rooms/team-room?token=${swapped}`)).status).toBe(403);
  });

  it('403 for a token of another tenant, 404 on a Host of no tenant', async () => {
    const bConf = f.store.conferences.insert(f.other.id, { online_conference_account_id: f.otherAccount.id, public_id: 'team-room', title: 'B room', is_public: false });
    const bAttendee = f.store.attendees.insert(bConf.id, { email: 'otto@other.test', name: 'Otto', attendee_type: null, attendee_id: null });
    const bToken = (await f.call('POST', tokenPath(bConf.id, bAttendee.id), { key: f.key(['*'], f.other.id), headers: { host: 'other.test' } })).json().data;
    expect(bToken.join_url.startsWith('http://other.test/rooms/team-room?token=')).toBe(true);
    expect((await raw(local(bToken.join_url), { host: 'other.test' })).status).toBe(200);
    // The same path and token on A's host: B's ids are not A's, and the signature names B.
    const onA = await raw(local(bToken.join_url));
    expect([onA.status, onA.body]).toEqual([403, 'Invalid token.']);
    // And A's token on B's host, whose conference has the same public_id.
    const aToken = await issue(conf.id, grace);
    expect((await raw(local(aToken.join_url), { host: 'other.test' })).status).toBe(403);
    const unknown = await raw(local(aToken.join_url), { host: 'nobody.test' });
    expect([unknown.status, unknown.body]).toEqual([404, 'Unknown tenant.']);
  });

  it('405 with Allow for another method; 404 for another path shape', async () => {
    const post = await raw('/rooms/team-room?token=x', { method: 'POST' });
    expect([post.status, post.body, post.headers.allow]).toEqual([405, 'Method not allowed.', 'GET, HEAD']);
    for (const path of ['/rooms/', '/rooms/a/b', '/rooms/%E0%A4%A']) {
      const res = await raw(path);
      expect([path, res.status, res.body]).toEqual([path, 404, 'Resource object does not exist.']);
    }
  });
});
