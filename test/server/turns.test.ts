import { describe, expect, it } from 'vitest';
import { createTurns } from '../../src/server/turns.js';

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('turns', () => {
  it('start 64 requests in a turn, queue the rest, and start an idle connection’s request before queued pipelined ones', async () => {
    const turns = createTurns();
    const order: string[] = [];
    for (let i = 0; i < 70; i++) turns.run(() => order.push(`p${i}`), false);
    expect(order).toHaveLength(64);
    turns.run(() => order.push('fresh'), true);
    expect(order).toHaveLength(64); // nothing starts at once while requests are queued
    await endOfTurn();
    expect(order.slice(64)).toEqual(['fresh', 'p64', 'p65', 'p66', 'p67', 'p68', 'p69']);
  });

  it('start at once again once the queue has drained', async () => {
    const turns = createTurns();
    const order: number[] = [];
    for (let i = 0; i < 65; i++) turns.run(() => order.push(i), false);
    await endOfTurn();
    expect(order).toHaveLength(65);
    turns.run(() => order.push(65), true);
    expect(order).toHaveLength(66);
  });
});
