import { HANDLERS, type HandlerMap } from '../../src/server/index.js';

/**
 * The handlers with `GET /users/{id}` replaced by one that counts its calls and holds every call
 * until `release()`; `started(n)` resolves once it has been called `n` times.
 */
export function heldGetUser() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let calls = 0;
  const waiting: [number, () => void][] = [];
  const handlers: HandlerMap = {
    ...HANDLERS,
    getUser: {
      run: async () => {
        calls++;
        for (const [n, wake] of waiting) if (calls >= n) wake();
        await gate;
        return { id: 1 };
      },
    },
  };
  const started = (n: number) => new Promise<void>((r) => (calls >= n ? r() : waiting.push([n, r])));
  return { handlers, release, started, calls: () => calls };
}
