// @ts-check
/**
 * `confctl` in the shell of the manual's examples (readme/section-env.ts): sends its command line,
 * environment and working directory to the harness's socket (cli-socket.ts), which runs it in a
 * CLI runner, and writes what comes back to its own stdout and stderr, exiting with the command's
 * code. Its stdin goes to the command only when the command reads it. Usage:
 * `node cli-client.mjs SOCKET BIN ARGS...`; BIN runs in a process of its own when the harness says
 * so (an environment node reads at start).
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { FRAME } from './cli-frames.mjs';

const [socketPath, bin, ...args] = process.argv.slice(2);
const socket = connect(socketPath);
socket.write(`${JSON.stringify({ args, env: process.env, cwd: process.cwd() })}\n`);

// As the bin does (src/cli/main.ts): a reader that went away ends the command quietly.
process.stdout.on('error', () => process.exit(process.exitCode ?? 0));

let stdinPiped = false;

/**
 * @param {number} type
 * @param {Buffer} payload
 */
function handle(type, payload) {
  if (type === FRAME.stdout) process.stdout.write(payload);
  else if (type === FRAME.stderr) process.stderr.write(payload);
  else if (type === FRAME.wantStdin) {
    stdinPiped = true;
    process.stdin.pipe(socket);
  } else if (type === FRAME.exit) {
    process.exitCode = Number(payload.toString());
    socket.destroy();
    if (stdinPiped) process.stdin.destroy();
  } else if (type === FRAME.ownProcess) {
    socket.destroy();
    const child = spawn(process.execPath, [bin, ...args], { stdio: 'inherit' });
    for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => (process.exitCode = code ?? (signal ? 128 : 1)));
  }
}

let buffered = Buffer.alloc(0);
socket.on('data', (chunk) => {
  buffered = Buffer.concat([buffered, chunk]);
  while (buffered.length >= 5) {
    const length = buffered.readUInt32BE(1);
    if (buffered.length < 5 + length) return;
    const type = buffered[0];
    const payload = buffered.subarray(5, 5 + length);
    buffered = buffered.subarray(5 + length);
    handle(type, payload);
  }
});
socket.on('error', (err) => {
  process.stderr.write(`confctl (test client): ${err.message}\n`);
  process.exitCode = 70;
});
