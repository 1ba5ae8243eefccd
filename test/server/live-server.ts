import type net from 'node:net';
import { afterEach } from 'vitest';
import type { HandlerMap, ServerOptions } from '../../src/server/index.js';
import { closeGracefully } from '../../src/server/index.js';
import { listen } from './conferences-fixture.js';
import { API, setup, type Fixture } from './fixtures.js';
import { rawGet, served } from './socket-helpers.js';

/**
 * A fixture server on a real port of 127.0.0.1, for socket-level tests: `start` builds one for a
 * test; after it, the sockets handed to `keep`, the server and its store are closed.
 */
export function liveServer() {
  let fixture: Fixture | undefined;
  let port = 0;
  const sockets: net.Socket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    if (!fixture) return;
    await closeGracefully(fixture.app.server, 1000);
    fixture.store.close();
    fixture = undefined;
  });
  const live = {
    get f(): Fixture {
      if (!fixture) throw new Error('no server started');
      return fixture;
    },
    get port(): number {
      return port;
    },
    async start(options: Partial<ServerOptions> = {}, handlers?: HandlerMap) {
      fixture = setup(options, handlers);
      port = Number(new URL(await listen(fixture.app.server)).port);
    },
    /** Destroys `socket` after the test. */
    keep<T extends net.Socket>(socket: T): T {
      sockets.push(socket);
      return socket;
    },
    /** A raw `GET {API}{path}` with the all-permissions key and `extra` header lines. */
    get: (path = '/users', extra = '') => rawGet(API + path, live.f.admin, extra),
    /** A connection from `localAddress` served one GET and kept alive. */
    async kept(localAddress?: string) {
      const connection = await served(port, live.get(), localAddress);
      live.keep(connection.socket);
      return connection;
    },
  };
  return live;
}
