import { expect, it } from 'vitest';
import { processContext } from '../../src/cli/context.js';

it('the first Ctrl-C goes to the command, a second one is left to Node and ends the process at once', () => {
  const before = process.listeners('SIGINT');
  const calls: string[] = [];
  const unsubscribe = processContext().onInterrupt!(() => calls.push('stop'));
  expect(process.listenerCount('SIGINT')).toBe(before.length + 1);
  process.emit('SIGINT');
  expect(calls).toEqual(['stop']);
  // Nothing of ours listens any more: with no listener, Node's default ends the process on SIGINT.
  expect(process.listeners('SIGINT')).toEqual(before);
  process.emit('SIGINT');
  expect(calls).toEqual(['stop']);
  unsubscribe();
  expect(process.listeners('SIGINT')).toEqual(before);
});

it('unsubscribing before any Ctrl-C removes the handler', () => {
  const before = process.listeners('SIGINT');
  processContext().onInterrupt!(() => {})();
  expect(process.listeners('SIGINT')).toEqual(before);
});
