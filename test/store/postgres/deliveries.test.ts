import { describe, expect, it } from 'vitest';
import { deliver, PER_TURN } from '../../../src/store/postgres/deliveries.js';
import { TurnQueue } from '../../../src/store/postgres/turn.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('deliver', () => {
  it('settles at most PER_TURN askers per turn of the event loop, in order, and every one in the end', async () => {
    const settled: number[] = [];
    deliver(Array.from({ length: PER_TURN * 2 + 5 }, (_, i) => () => settled.push(i)));
    expect(settled).toEqual(Array.from({ length: PER_TURN }, (_, i) => i));
    await nextTurn();
    expect(settled).toHaveLength(PER_TURN * 2);
    await nextTurn();
    expect(settled).toEqual(Array.from({ length: PER_TURN * 2 + 5 }, (_, i) => i));
  });

  it("serves the single asker of another answer after at most PER_TURN of a large answer's askers", async () => {
    const order: string[] = [];
    deliver(Array.from({ length: 500 }, (_, i) => () => order.push(`big${i}`)));
    deliver([() => order.push('single')]);
    for (let turn = 0; turn < 10; turn++) await nextTurn();
    expect(order).toHaveLength(501);
    expect(order.indexOf('single')).toBeLessThanOrEqual(PER_TURN + 1);
  });
});

describe('TurnQueue deliveries', () => {
  it("resolves a flood of one question's askers over several turns, and another question's asker among the first", async () => {
    const queue = new TurnQueue<string, string>(async (args) => args.map((a) => a.toUpperCase()));
    const answered: string[] = [];
    const asks = Array.from({ length: 300 }, () => queue.ask('list', 'list').then((v) => answered.push(v)));
    const get = queue.ask('get', 'get').then((v) => answered.push(v));
    await Promise.all([...asks, get]);
    expect(answered).toHaveLength(301);
    expect(answered.indexOf('GET')).toBeLessThanOrEqual(PER_TURN + 1);
  });
});
