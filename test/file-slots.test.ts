import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveSlots } from './file-slots.js';

/** A connection to the slots, and whether (and how often) it was granted one so far. */
function ask(path: string): { socket: Socket; granted: () => string } {
  const socket = connect(path);
  let got = '';
  socket.on('data', (data) => (got += String(data)));
  return { socket, granted: () => got };
}

/** Lets the sockets' events in flight arrive. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('file slots (test/file-slots.ts)', () => {
  it('grants as many slots as it has, in the order asked, and the next one as a holder closes or dies', async () => {
    const slots = await serveSlots(2);
    try {
      const [a, b, c, d] = [ask(slots.path), ask(slots.path), ask(slots.path), ask(slots.path)];
      await once(b.socket, 'data');
      await settle();
      expect([a, b, c, d].map((x) => x.granted())).toEqual(['go\n', 'go\n', '', '']);

      a.socket.destroy();
      await once(c.socket, 'data');
      await settle();
      expect([c, d].map((x) => x.granted())).toEqual(['go\n', '']);

      // One waiting gives up: its place goes to nobody, and the next slot freed goes to the one behind it.
      const e = ask(slots.path);
      await settle();
      d.socket.destroy();
      c.socket.destroy();
      await once(e.socket, 'data');
      expect(e.granted()).toBe('go\n');
      for (const x of [b, e]) x.socket.destroy();
    } finally {
      await slots.close();
    }
  });

  it('closing removes its socket and its directory', async () => {
    const slots = await serveSlots(1);
    expect(existsSync(slots.path)).toBe(true);
    await slots.close();
    expect(existsSync(dirname(slots.path))).toBe(false);
  });
});
