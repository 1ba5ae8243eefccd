// @ts-check
/**
 * The frames the CLI socket (cli-socket.ts) sends its shell client (cli-client.mjs): a type byte,
 * a 32-bit length and the payload. One module for both ends, which is why it is not TypeScript:
 * the client runs under plain node.
 */
export const FRAME = /** @type {const} */ ({ stdout: 1, stderr: 2, wantStdin: 3, exit: 4, ownProcess: 5 });
