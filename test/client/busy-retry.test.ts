import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { type MockServer, startMockServer } from '../http-mock.js';

const ORIGIN = 'https://acme.test';
const BASE = `${ORIGIN}/api/public/v2.0`;
const JSONH = { headers: { 'content-type': 'application/json' } };
const BUSY = { headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' } };

/** Every host is routed to this scripted server (plain HTTP on the socket): https://acme.test reaches it. */
const agent: MockServer = await startMockServer();
afterAll(() => agent.close());
let sleeps: number[];
const client = () => createClient({ baseUrl: BASE, keyId: 'ak_1', secret: 'shh', connect: agent.connect, pacer: null, sleep: async (ms) => void sleeps.push(ms) });

beforeEach(() => {
  agent.reset();
  sleeps = [];
});
afterEach(() => agent.assertNoPendingInterceptors());

/** 503 `Service busy, try again.` means the server wrote nothing, so any method may be sent again. */
describe('503 Service busy', () => {
  it('is retried for POST and PATCH after Retry-After', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/api/public/v2.0/customers', method: 'POST' }).reply(503, 'Service busy, try again.', BUSY);
    pool.intercept({ path: '/api/public/v2.0/customers', method: 'POST' }).reply(200, { message: 'Success.', data: { id: 7 } }, JSONH);
    pool.intercept({ path: '/api/public/v2.0/customers/7', method: 'PATCH' }).reply(503, 'Service busy, try again.', BUSY);
    pool.intercept({ path: '/api/public/v2.0/customers/7', method: 'PATCH' }).reply(200, { message: 'Success.', data: { id: 7 } }, JSONH);
    const c = client();
    expect((await c.createCustomer({ first_name: 'a', last_name: 'b', email: 'c@d.e' })).data.id).toBe(7);
    expect((await c.updateCustomer(7, { first_name: 'x' })).data.id).toBe(7);
    expect(sleeps).toEqual([1000, 1000]);
  });

  it('gives up after the tries with the 503; any other 503 of a POST is not retried', async () => {
    const pool = agent.get(ORIGIN);
    pool.intercept({ path: '/api/public/v2.0/customers', method: 'POST' }).reply(503, 'Service busy, try again.', BUSY).times(5);
    pool.intercept({ path: '/api/public/v2.0/customers', method: 'POST' }).reply(503, 'Service Unavailable');
    const c = client();
    expect(await c.createCustomer({ first_name: 'a', last_name: 'b', email: 'c@d.e' }).catch((e) => e)).toMatchObject({ status: 503, tries: 5, message: 'Service busy, try again.' });
    expect(sleeps).toEqual([1000, 1000, 1000, 1000]);
    expect(await c.createCustomer({ first_name: 'a', last_name: 'b', email: 'c@d.e' }).catch((e) => e)).toMatchObject({ status: 503, tries: 1 });
  });
});
