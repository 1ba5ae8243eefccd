/**
 * CONNECT: node:http hands it to `connect` listeners and, with none, destroys the socket (no
 * answer, no log line). Here it goes through the pipeline like any other method the API does not
 * serve (its `host:port` target matches no route), is logged there, and the answer is written
 * on the socket, which is then closed: nothing is ever tunnelled.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { PipelineRequest } from './pipeline.js';
import type { Reply } from './reply.js';

export function answerConnect(
  server: http.Server,
  handle: (req: PipelineRequest) => Promise<Reply>,
  write: (res: http.ServerResponse, reply: Reply) => void,
): void {
  server.on('connect', (req: http.IncomingMessage, socket: Socket) => {
    const res = new http.ServerResponse(req);
    res.assignSocket(socket);
    res.shouldKeepAlive = false;
    res.once('finish', () => socket.end());
    handle({
      method: 'CONNECT',
      url: req.url ?? '/',
      headers: req.headers,
      remoteAddress: socket.remoteAddress ?? '',
      // A CONNECT's bytes after its head belong to the tunnel, which is never opened.
      readBody: async () => Buffer.alloc(0),
    })
      .then((reply) => write(res, reply))
      .catch(() => socket.destroy());
  });
}
