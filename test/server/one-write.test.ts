import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { API, setup } from './fixtures.js';
import { connect } from './socket-helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A listening server whose connections record every chunk the response side hands the socket.
 * Empty chunks carry no bytes (node:http ends a response with one) and are left out.
 */
async function listening() {
  const f = setup();
  const writes: string[] = [];
  f.app.server.on('connection', (socket: Socket) => {
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk);
      if (text !== '') writes.push(text);
      return write(chunk, ...rest);
    });
  });
  await new Promise<void>((resolve) => f.app.server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => f.app.server.close(() => resolve())));
  return { ...f, port: (f.app.server.address() as AddressInfo).port, writes };
}

/** Sends one raw request and resolves with the first response's text once it is complete. */
async function exchange(port: number, request: string): Promise<string> {
  const socket = await connect(port);
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => {
      text += c;
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? -1);
      if (end !== -1 && length >= 0 && text.length >= end + 4 + length) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.write(request);
  });
}

describe('responses are written in one piece', () => {
  it('hands a small JSON answer to the socket as one chunk: headers and body together', async () => {
    const s = await listening();
    const keys = `x-access-key-id: ${s.admin['x-access-key-id']}\r\nx-access-key-secret: ${s.admin['x-access-key-secret']}\r\n`;
    const text = await exchange(s.port, `GET ${API}/users?page_size=1 HTTP/1.1\r\nHost: localhost\r\n${keys}\r\n`);
    expect(text.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(s.writes).toHaveLength(1);
    expect(s.writes[0]).toBe(text);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ data: [], total: 0 });
  });

  it('writes an error answer in one chunk too, its Content-Length counting bytes, not characters', async () => {
    const s = await listening();
    const text = await exchange(s.port, `GET ${API}/users HTTP/1.1\r\nHost: unknown.test\r\n\r\n`);
    expect(text.startsWith('HTTP/1.1 404 Not Found\r\n')).toBe(true);
    expect(s.writes).toEqual([text]);
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    expect(Number(/content-length: (\d+)/i.exec(text)?.[1])).toBe(Buffer.byteLength(body, 'latin1'));
  });
});
