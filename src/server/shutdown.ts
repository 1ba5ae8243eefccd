import type http from 'node:http';

const closing = new WeakSet<http.Server>();

/** True once `closeGracefully` has begun on this server: responses then close their connection. */
export function isClosing(server: http.Server): boolean {
  return closing.has(server);
}

/**
 * Stops accepting connections, closes idle keep-alive connections, lets in-flight requests
 * finish (their responses carry `Connection: close`), and resolves once every connection is
 * gone; after `timeoutMs` the remaining connections are cut. The caller closes the store after.
 */
export function closeGracefully(server: http.Server, timeoutMs = 10_000): Promise<void> {
  closing.add(server);
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
