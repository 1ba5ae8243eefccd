import { describe, expect, it } from 'vitest';
import { cpuTicksFromStat, fixed, markdownTable, median, megabytes, middleRun, ratio, statusField } from '../../bench/lib/stats.js';

describe('median', () => {
  it('takes the middle of an odd count and the mean of the middle two of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('does not reorder its argument and refuses an empty list', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
    expect(() => median([])).toThrow('median of no values');
  });
});

describe('middleRun', () => {
  it('answers the whole run whose figure is the median of three, the upper middle of an even count', () => {
    const runs = [{ cpu: 21.9, rps: 1 }, { cpu: 14.4, rps: 2 }, { cpu: 27.5, rps: 3 }];
    expect(middleRun(runs, (r: { cpu: number }) => r.cpu)).toEqual({ cpu: 21.9, rps: 1 });
    expect(middleRun([{ cpu: 2 }, { cpu: 1 }], (r: { cpu: number }) => r.cpu)).toEqual({ cpu: 2 });
    expect(runs.map((r) => r.cpu)).toEqual([21.9, 14.4, 27.5]);
    expect(() => middleRun([], () => 0)).toThrow('middle of no runs');
  });
});

describe('cpuTicksFromStat', () => {
  it('adds utime and stime, counting fields after the command name', () => {
    const stat = '4242 (node) S 1 4242 4242 0 -1 4194560 1000 0 0 0 731 129 0 0 20 0 11 0 5000 1000000 20000';
    expect(cpuTicksFromStat(stat)).toBe(860);
  });
  it('is not confused by spaces and parentheses in the command name', () => {
    const stat = '7 (a) b (c) R 1 7 7 0 -1 0 0 0 0 0 10 5 0 0 20 0 1 0 1 1 1';
    expect(cpuTicksFromStat(stat)).toBe(15);
  });
  it('throws on text that is not a stat line', () => {
    expect(() => cpuTicksFromStat('garbage')).toThrow('unreadable');
  });
});

describe('statusField', () => {
  const status = 'Name:\tnode\nVmPeak:\t  900000 kB\nVmHWM:\t   98304 kB\nVmRSS:\t   90000 kB\n';
  it('reads a kB field as bytes', () => {
    expect(statusField(status, 'VmHWM')).toBe(98304 * 1024);
    expect(statusField(status, 'VmRSS')).toBe(90000 * 1024);
  });
  it('answers undefined for a missing field', () => {
    expect(statusField(status, 'VmSwap')).toBeUndefined();
  });
});

describe('formatting', () => {
  it('formats ratios with two decimals below 10 and one above', () => {
    expect(ratio(0.1549)).toBe('0.15');
    expect(ratio(6.44)).toBe('6.44');
    expect(ratio(64.44)).toBe('64.4');
    expect(ratio(Number.NaN)).toBe('n/a');
    expect(ratio(undefined)).toBe('n/a');
  });
  it('formats fixed decimals and megabytes, n/a when unknown', () => {
    expect(fixed(12.345, 1)).toBe('12.3');
    expect(fixed(undefined, 1)).toBe('n/a');
    expect(megabytes(98_500_000)).toBe('99 MB');
    expect(megabytes(undefined)).toBe('n/a');
  });
  it('prints a Markdown table', () => {
    expect(markdownTable(['a', 'b'], [['1', '2']])).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });
});
