import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../../src/server/options.js';
import { createPipeline } from '../../src/server/pipeline.js';
import { MAX_IN_FLIGHT_PER_CONNECTION, MAX_WAITING_PER_CONNECTION } from '../../src/server/pipelining.js';
import { HANDLERS } from '../../src/server/index.js';
import { API } from './fixtures.js';
import { heldGetUser } from './held-handler.js';
import { liveServer } from './live-server.js';
import { connect, exchange, logSink, openConnections, readResponse, served, untilClosed, type RawExchange } from './socket-helpers.js';

const live = liveServer();

/** A connection from `localAddress` that sends nothing: what the server wrote before closing it. */
async function silent(localAddress?: string): Promise<RawExchange> {
  return untilClosed(live.keep(await connect(live.port, localAddress)));
}

function expectTooManyConnections(res: RawExchange) {
  expect([res.status, res.body]).toEqual([503, 'Too many connections.']);
  expect(res.headers).toMatchObject({ 'retry-after': '1', connection: 'close', 'content-type': 'text/plain; charset=utf-8' });
  expect(res.headers['x-process-id']).toMatch(/^[0-9a-f-]{36}$/);
}

describe('connection caps', () => {
  it('default to 500 in all and 100 per address, and no per-address cap behind a trusted proxy', async () => {
    await live.start();
    const base = { store: live.f.store, signingSecret: 's', mediaDir: '/m' };
    expect(resolveOptions(base)).toMatchObject({ maxConnections: 500, maxConnectionsPerAddress: 100 });
    expect(resolveOptions({ ...base, trustProxy: true }).maxConnectionsPerAddress).toBeNull();
    expect(resolveOptions({ ...base, trustProxy: true, maxConnectionsPerAddress: 8 }).maxConnectionsPerAddress).toBe(8);
  });

  it('refuse a connection over the per-address cap as it is accepted, before it sends anything', async () => {
    await live.start({ maxConnectionsPerAddress: 1 });
    expect((await live.kept('127.0.0.1')).answer.status).toBe(200);
    expectTooManyConnections(await silent('127.0.0.1'));
    // A client that sends its request at once reads the same answer.
    expectTooManyConnections(await exchange(live.port, live.get()));
    expect((await live.kept('127.0.0.2')).answer.status).toBe(200); // another address has its own
  });

  it('keep a slow-header flood from one address to its cap: a client from another address is served', { timeout: 30_000 }, async () => {
    await live.start(); // the defaults: 100 per address, 500 in all
    const flood = await Promise.all(
      Array.from({ length: 500 }, async () => {
        const socket = live.keep(await connect(live.port, '127.0.0.2'));
        const closed = untilClosed(socket);
        socket.write(`GET ${API}/users HTTP/1.1\r\nHost: localhost\r\n`);
        return { socket, closed };
      }),
    );
    const refused = await new Promise<RawExchange[]>((resolve) => {
      const answers: RawExchange[] = [];
      for (const { closed } of flood) void closed.then((res) => answers.push(res) === 400 && resolve(answers));
    });
    for (const res of refused) expectTooManyConnections(res);
    await openConnections(live.f.app.server, 100);
    expect(flood.filter(({ socket }) => !socket.destroyed)).toHaveLength(100);
    expect((await live.kept('127.0.0.1')).answer.status).toBe(200);
  });

  it('keep idle keep-alive connections of one address to its cap: a client from another address is served', async () => {
    await live.start({ maxConnectionsPerAddress: 3 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await live.kept('127.0.0.3')).answer.status);
    expect(statuses).toEqual([200, 200, 200, 503, 503]);
    expect((await live.kept('127.0.0.1')).answer.status).toBe(200);
  });

  it('at the total cap, close the oldest idle connection of the address holding the most to make room', async () => {
    await live.start({ maxConnections: 3, maxConnectionsPerAddress: null });
    const oldest = await live.kept('127.0.0.2');
    const younger = await live.kept('127.0.0.2');
    const other = await live.kept('127.0.0.1');
    const oldestClosed = untilClosed(oldest.socket);
    expect((await live.kept('127.0.0.3')).answer.status).toBe(200);
    expect((await oldestClosed).text).toBe(''); // closed without a word
    for (const { socket } of [younger, other]) {
      const answer = readResponse(socket);
      socket.write(live.get());
      expect((await answer).status).toBe(200);
    }
  });

  it('at the total cap with every connection holding a request, refuse; room returns as connections close', async () => {
    const held = heldGetUser();
    await live.start({ maxConnections: 2, maxConnectionsPerAddress: null }, held.handlers);
    const busy = await Promise.all(
      ['127.0.0.2', '127.0.0.3'].map(async (address) => {
        const socket = live.keep(await connect(live.port, address));
        const answer = readResponse(socket);
        socket.write(live.get('/users/1'));
        return { answer };
      }),
    );
    await held.started(2);
    expectTooManyConnections(await silent('127.0.0.1'));
    held.release();
    expect((await Promise.all(busy.map((b) => b.answer))).map((a) => a.status)).toEqual([200, 200]);
    expect((await live.kept('127.0.0.1')).answer.status).toBe(200);
  });
});

describe('pipelined requests', () => {
  /** Reads from `socket` until `n` whole responses of `body` have come. */
  const answers = (socket: net.Socket, n: number, body: string) =>
    new Promise<string[]>((resolve) => {
      let text = '';
      socket.on('data', (c: Buffer) => {
        text += c.toString('latin1');
        const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);
        if (statuses.length === n && text.endsWith(body)) resolve(statuses);
      });
    });
  /** The server's side of the next connection it accepts. */
  const nextAccepted = () => new Promise<net.Socket>((resolve) => live.f.app.server.once('connection', resolve));
  /** Resolves once a request on a fresh connection has been answered: what the server had to do before, it has done. */
  const roundTrip = async () => expect((await served(live.port, live.get('/users', 'Connection: close\r\n'))).answer.status).toBe(200);

  it('handle 10 requests of a connection at a time, and stop reading it while 64 more wait', async () => {
    expect([MAX_IN_FLIGHT_PER_CONNECTION, MAX_WAITING_PER_CONNECTION]).toEqual([10, 64]);
    const held = heldGetUser();
    await live.start({}, held.handlers);
    const accepted = nextAccepted();
    const socket = live.keep(await connect(live.port));
    const all = answers(socket, 74, '{"id":1}}');
    socket.write(live.get('/users/1').repeat(74));
    const server = await accepted;
    await held.started(10);
    await roundTrip();
    expect(held.calls()).toBe(10);
    expect(server.isPaused()).toBe(true);
    held.release();
    expect(await all).toEqual(Array(74).fill('200'));
    expect(held.calls()).toBe(74);
    expect(server.isPaused()).toBe(false);
  });

  it('do not stop reading a connection while fewer than 64 wait', async () => {
    const held = heldGetUser();
    await live.start({}, held.handlers);
    const accepted = nextAccepted();
    const socket = live.keep(await connect(live.port));
    socket.write(live.get('/users/1').repeat(73)); // 10 in flight, 63 waiting
    const server = await accepted;
    await held.started(10);
    await roundTrip();
    expect(server.isPaused()).toBe(false);
    held.release();
  });

  it('a client that goes away with requests queued costs no further handler work', async () => {
    const held = heldGetUser();
    await live.start({}, held.handlers);
    const socket = await connect(live.port);
    socket.write(live.get('/users/1').repeat(30));
    await held.started(10);
    socket.destroy();
    await openConnections(live.f.app.server, 0);
    held.release();
    await roundTrip();
    expect(held.calls()).toBe(10);
  });

  it('do not run the handler of a request whose client went away before it, and log it 499', async () => {
    await live.start();
    const log = logSink();
    let calls = 0;
    const options = resolveOptions({ store: live.f.store, signingSecret: 's', mediaDir: '/m', rateLimit: null, log: 'json', logStream: log.stream });
    const handle = createPipeline(options, { ...HANDLERS, getUser: { run: async () => ({ id: ++calls }) } });
    const request = { method: 'GET', url: `${API}/users/1`, headers: { host: 'localhost', ...live.f.admin }, remoteAddress: '127.0.0.1', readBody: async () => Buffer.alloc(0) };
    expect((await handle({ ...request, gone: () => true })).status).toBe(499);
    expect(calls).toBe(0);
    expect((await handle({ ...request, gone: () => false })).status).toBe(200);
    expect(calls).toBe(1);
    expect(log.records().map((r) => r.status)).toEqual([499, 200]);
  });

  it('stop handling the requests of a client that does not read its answers', async () => {
    let calls = 0;
    let tenth!: () => void;
    const tenHandled = new Promise<void>((resolve) => (tenth = resolve));
    const big = {
      run: async () => {
        if (++calls === MAX_IN_FLIGHT_PER_CONNECTION) tenth();
        return { id: calls, padding: 'x'.repeat(1 << 20) };
      },
    };
    await live.start({}, { ...HANDLERS, getUser: big });
    const socket = live.keep(await connect(live.port)); // never read: the answers pile up in the sockets' buffers
    socket.write(live.get('/users/1').repeat(60));
    await tenHandled; // started over turns, one at first (a connection was accepted)
    await roundTrip();
    await roundTrip();
    expect(calls).toBeLessThan(30);
  });
});
