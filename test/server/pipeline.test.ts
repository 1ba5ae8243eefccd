import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { HANDLERS, HttpError } from '../../src/server/index.js';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(() => f?.store.close());

/** A writable that collects what it is given; `isTTY` switches the pretty log's colour. */
function sink(isTTY = false) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  Object.assign(stream, { isTTY });
  return { stream, lines };
}

describe('wire format', () => {
  it('sends JSON with charset, a unique X-Process-ID and a generated X-Request-ID', async () => {
    f = setup();
    const a = await f.call('GET', '/users');
    const b = await f.call('GET', '/users');
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(a.headers['x-process-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-process-id']).not.toBe(b.headers['x-process-id']);
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('echoes a valid X-Request-ID on success and error, and replaces an invalid one', async () => {
    f = setup();
    const id = 'req-123 !~';
    expect((await f.call('GET', '/users', { headers: { 'x-request-id': id } })).headers['x-request-id']).toBe(id);
    const err = await f.call('GET', '/nope', { headers: { 'x-request-id': id } });
    expect([err.status, err.headers['x-request-id']]).toEqual([404, id]);
    expect(err.headers['x-process-id']).toBeTruthy();
    expect((await f.call('GET', '/users', { headers: { 'x-request-id': 'x'.repeat(200) } })).headers['x-request-id']).toBe('x'.repeat(200));
    for (const bad of ['x'.repeat(201), 'tab\there', 'é']) {
      const res = await f.call('GET', '/users', { headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('parses bodies as JSON whatever the Content-Type; an empty body is {}', async () => {
    f = setup();
    const c = f.store.customers.insert(f.tenant.id, { first_name: 'A', last_name: 'B', email: 'a@b.test' });
    const text = { 'content-type': 'text/plain' };
    const res = await f.call('PATCH', `/customers/${c.id}`, { body: '{"first_name":"Z"}', headers: text });
    expect([res.status, res.json().data.first_name]).toEqual([200, 'Z']);
    const empty = await f.call('PATCH', `/customers/${c.id}`, { body: '' });
    expect([empty.status, empty.json().data.first_name]).toEqual([200, 'Z']);
    const create = await f.call('POST', '/customers', { body: '' });
    expect(create.status).toBe(400);
    expect(create.json().errors.first_name).toEqual(['The first_name field is required.']);
  });

  it('answers malformed JSON with the 400 body error', async () => {
    f = setup();
    const res = await f.call('POST', '/customers', { body: '{"first_name": ' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({
      message: 'The request body must be valid JSON.',
      errors: { body: ['The request body must be valid JSON.'] },
    });
  });

  it('answers 413 beyond 1 MiB and accepts exactly 1 MiB', async () => {
    f = setup();
    const pad = (n: number) => `{"first_name":"${'a'.repeat(n - 17)}"}`;
    expect(pad(1024 * 1024).length).toBe(1024 * 1024);
    const big = await f.call('POST', '/customers', { body: pad(1024 * 1024 + 1) });
    expect([big.status, big.body]).toEqual([413, 'Payload too large.']);
    expect(big.headers['content-type']).toBe('text/plain; charset=utf-8');
    const limit = await f.call('POST', '/customers', { body: pad(1024 * 1024) });
    expect(limit.status).toBe(400);
    expect(limit.json().errors.first_name).toEqual(['The first_name field must not be greater than 255 characters.']);
  });

  it('ignores unknown query parameters', async () => {
    f = setup();
    expect((await f.call('GET', '/users?foo=bar&x')).status).toBe(200);
  });
});

describe('unexpected failures', () => {
  it('answers 500 with the fixed text, leaks nothing, and logs the stack only to the log stream', async () => {
    const log = sink();
    const boom = { run: () => { throw new Error('SQLITE_SECRET_DETAIL at /internal/path'); } };
    f = setup({ log: 'json', logStream: log.stream }, { ...HANDLERS, getUser: boom });
    const res = await f.call('GET', '/users/1', { headers: { 'x-request-id': 'r500' } });
    expect([res.status, res.body]).toEqual([500, 'An unexpected error the service.']);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-request-id']).toBe('r500');
    const error = JSON.parse(log.lines.find((l) => l.includes('"level":"error"'))!);
    expect(error).toMatchObject({ level: 'error', request_id: 'r500' });
    expect(error.error).toContain('SQLITE_SECRET_DETAIL');
  });

  it('answers 500 when the store fails', async () => {
    f = setup();
    const { store } = f;
    store.close();
    const res = await f.call('GET', '/users');
    expect([res.status, res.body]).toEqual([500, 'An unexpected error the service.']);
    f = undefined as unknown as Fixture;
  });

  it('renders an HttpError thrown by a handler as plain text with its headers', async () => {
    const conflict = { run: () => { throw new HttpError(409, 'Nope.', { 'X-Extra': '1' }); } };
    f = setup({}, { ...HANDLERS, getUser: conflict });
    const res = await f.call('GET', '/users/1');
    expect([res.status, res.body, res.headers['x-extra']]).toEqual([409, 'Nope.', '1']);
  });
});

describe('access log', () => {
  it('writes one JSON object per request with the path and query, never the secret', async () => {
    const log = sink();
    f = setup({ log: 'json', logStream: log.stream, now: () => Date.parse('2030-05-06T07:08:09.010Z') });
    await f.call('GET', '/users?page_size=2', { headers: { 'x-request-id': 'abc' } });
    await f.call('GET', '/users', { key: null });
    expect(log.lines).toHaveLength(2);
    const first = JSON.parse(log.lines[0]);
    expect(Object.keys(first)).toEqual(['time', 'method', 'path', 'status', 'duration_ms', 'key_id', 'request_id']);
    expect(first).toMatchObject({
      time: '2030-05-06T07:08:09.010Z',
      method: 'GET',
      path: `${API}/users?page_size=2`,
      status: 200,
      key_id: f.admin['x-access-key-id'],
      request_id: 'abc',
    });
    expect(first.duration_ms).toBeTypeOf('number');
    expect(JSON.parse(log.lines[1])).toMatchObject({ status: 401, key_id: null });
    expect(log.lines.join('\n')).not.toContain(f.admin['x-access-key-secret']);
  });

  it('does not log a key id header that is not shaped like a key id (a pasted secret)', async () => {
    const log = sink();
    f = setup({ log: 'json', logStream: log.stream });
    const swapped = { 'x-access-key-id': f.admin['x-access-key-secret'], 'x-access-key-secret': f.admin['x-access-key-id'] };
    await f.call('GET', '/users', { key: swapped });
    expect(JSON.parse(log.lines[0]).key_id).toBeNull();
    expect(log.lines[0]).not.toContain(f.admin['x-access-key-secret']);
  });

  it('writes a pretty line, coloured only on a TTY', async () => {
    const plain = sink(false);
    f = setup({ log: 'pretty', logStream: plain.stream });
    await f.call('GET', '/users', { headers: { 'x-request-id': 'p1' } });
    expect(plain.lines[0]).toMatch(new RegExp(`^\\S+Z GET ${API}/users 200 [0-9.]+ms key=ak_\\w+ req=p1$`));
    f.store.close();
    const tty = sink(true);
    f = setup({ log: 'pretty', logStream: tty.stream });
    await f.call('GET', '/users');
    expect(tty.lines[0]).toContain('\u001b[');
  });

  it('writes nothing when off', async () => {
    const log = sink();
    f = setup({ log: 'off', logStream: log.stream });
    await f.call('GET', '/users');
    expect(log.lines).toEqual([]);
  });
});
