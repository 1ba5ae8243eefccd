import { createServer, type Socket } from 'node:net';
import { ownProcess, withRunner } from './cli-runners.js';

/**
 * A Unix socket on which a shell's `confctl` (cli-client.pl) has its command line run by the CLI
 * runners (cli-runners.ts), for the manual's examples: the client sends a line of JSON (its
 * arguments, environment and working directory), then its stdin once asked; it gets frames of a
 * type byte (FRAME), a 32-bit big-endian length and the payload.
 */

/** The frames' types; cli-client.pl reads the same numbers. */
const FRAME = { stdout: 1, stderr: 2, wantStdin: 3, exit: 4, ownProcess: 5 } as const;

function frame(type: number, payload: Uint8Array | string = ''): Buffer {
  const data = Buffer.from(payload);
  const head = Buffer.alloc(5);
  head.writeUInt8(type, 0);
  head.writeUInt32BE(data.length, 1);
  return Buffer.concat([head, data]);
}

interface Header {
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Reads the client's header line; answers it and the bytes after it. */
function readHeader(socket: Socket): Promise<{ header: Header; rest: Buffer }> {
  return new Promise((done, fail) => {
    let seen = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const end = seen.indexOf(10);
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      try {
        done({ header: JSON.parse(seen.subarray(0, end).toString()) as Header, rest: seen.subarray(end + 1) });
      } catch (err) {
        fail(err);
      }
    };
    socket.on('data', onData);
    socket.once('error', fail);
  });
}

async function answer(socket: Socket): Promise<void> {
  socket.on('error', () => {});
  const { header, rest } = await readHeader(socket);
  if (ownProcess(header.args, header.env)) {
    socket.end(frame(FRAME.ownProcess));
    return;
  }
  // A runner's own failure (a command left its process unable to exit) is the software error, 70.
  const code = await withRunner((runner, id) => {
    const feed = (data: Buffer | null) => runner.stdin(id, data);
    return runner.run(id, header, {
      output: (fd, data) => socket.write(frame(fd, data)),
      wantStdin: () => {
        if (rest.length) feed(rest);
        socket.on('data', feed);
        socket.once('end', () => feed(null));
        socket.write(frame(FRAME.wantStdin));
        socket.resume();
      },
    });
  }).then(
    (outcome) => outcome.code,
    (err: unknown) => {
      socket.write(frame(FRAME.stderr, `${String(err)}\n`));
      return 70;
    },
  );
  socket.end(frame(FRAME.exit, String(code)));
}

/** Serves confctl command lines on the Unix socket `path` until closed; `answered` counts the connections taken. */
export async function serveCli(path: string): Promise<{ path: string; answered(): number; close(): Promise<void> }> {
  let answered = 0;
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    answered++;
    answer(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(path, done);
  });
  return { path, answered: () => answered, close: () => new Promise((done) => server.close(() => done())) };
}
