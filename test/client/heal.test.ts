import { Socket } from 'node:net';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cannotHeal, createClient } from '../../src/client/client.js';
import { ApiError, NetworkError } from '../../src/client/errors.js';
import { type MockServer, startMockServer } from '../http-mock.js';

const ORIGIN = 'https://acme.test';
const BASE = `${ORIGIN}/api/public/v2.0`;
const PATH = '/api/public/v2.0/users/1';

/** Every host is routed to this scripted server (plain HTTP on the socket): https://acme.test reaches it. */
const agent: MockServer = await startMockServer();
afterAll(() => agent.close());
let sleeps: number[];
const client = (extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
  createClient({ baseUrl: BASE, keyId: 'ak_1', secret: 'shh', connect: agent.connect, sleep: async (ms) => void sleeps.push(ms), ...extra });
const coded = (code: string, message: string) => Object.assign(new Error(message), { code });

beforeEach(() => {
  agent.reset();
  sleeps = [];
});
afterEach(() => agent.assertNoPendingInterceptors());

/** Errors no retry can heal fail at once, with their cause. */
describe('no retries on what cannot heal', () => {
  it.each([
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND acme.test'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'],
    ['CERT_HAS_EXPIRED', 'certificate has expired'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'],
    ['EPROTO', 'wrong version number'],
  ])('%s: one try, the cause in the message', async (code, message) => {
    // The connection itself fails with the coded error, as DNS or TLS would fail it.
    let connections = 0;
    const failing = () => {
      connections++;
      const socket = new Socket();
      process.nextTick(() => socket.destroy(coded(code, message)));
      return socket;
    };
    const err = await client({ connect: failing }).getUser(1).catch((e) => e);
    expect(connections).toBe(1);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ tries: 1 });
    expect(err.message).toContain(message);
    expect(sleeps).toEqual([]);
  });

  it('a refused connection or a reset still heals: retried', async () => {
    expect(cannotHeal(coded('ECONNREFUSED', 'refused'))).toBe(false);
    expect(cannotHeal(coded('ECONNRESET', 'reset'))).toBe(false);
    expect(cannotHeal(Object.assign(new Error('fetch failed'), { cause: coded('ENOTFOUND', 'x') }))).toBe(true);
  });

  it.each([400, 401, 403, 404, 405, 409, 422])('HTTP %i: one try', async (status) => {
    agent.get(ORIGIN).intercept({ path: PATH, method: 'GET' }).reply(status, 'No.', { headers: { 'content-type': 'text/plain' } });
    const err = await client().getUser(1).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status, tries: 1, message: 'No.' });
    expect(sleeps).toEqual([]);
  });

  it('HTTP 429 is retried (Retry-After honoured)', async () => {
    const p = agent.get(ORIGIN);
    p.intercept({ path: PATH, method: 'GET' }).reply(429, 'Too many requests.', { headers: { 'retry-after': '2' } });
    p.intercept({ path: PATH, method: 'GET' }).reply(200, { message: 'OK', data: { id: 1 } }, { headers: { 'content-type': 'application/json' } });
    expect((await client().getUser(1)).data.id).toBe(1);
    expect(sleeps).toEqual([2000]);
  });
});

describe('an answer that is not the API', () => {
  it('a 200 HTML page is an ApiError marked notApi, naming the base URL (not a JSON parse crash)', async () => {
    agent.get(ORIGIN).intercept({ path: PATH, method: 'GET' }).reply(200, '<!doctype html><title>Welcome</title>', { headers: { 'content-type': 'text/html' } });
    const err = await client().getUser(1).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 200, notApi: true, baseUrl: BASE, message: 'the answer is an HTML page' });
  });

  it('a 404 HTML page does not become the error message', async () => {
    agent.get(ORIGIN).intercept({ path: PATH, method: 'GET' }).reply(404, `<html><body>${'x'.repeat(5000)}</body></html>`, { headers: { 'content-type': 'text/html' } });
    const err = await client().getUser(1).catch((e) => e);
    expect(err).toMatchObject({ status: 404, notApi: true, message: 'HTTP 404 with an HTML page', tries: 1 });
  });
});
