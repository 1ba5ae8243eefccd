import { describe, expect, it } from 'vitest';
import { durationSyntax, formatDuration, parseDuration } from '../../src/contract/duration.js';

describe('parseDuration', () => {
  it('reads a number with ms, s, m or h; a bare number is seconds', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('5s')).toBe(5000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('.5s')).toBe(500);
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('30')).toBe(30_000);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration(' 3s ')).toBe(3000);
  });

  it('rounds to whole milliseconds', () => {
    expect(parseDuration('1.0004s')).toBe(1000);
    expect(parseDuration('0.5ms')).toBe(1);
  });

  it('refuses anything else', () => {
    for (const bad of ['', 's', '-1s', '+1s', '1 s', '1S', '1sec', '1min', '1e3', '1,5s', '1.s', '5d', 'Infinity', '1h30m', '99999999999999999999h']) {
      expect(parseDuration(bad), bad).toBeUndefined();
    }
  });

  it('takes days only where the caller allows them', () => {
    expect(parseDuration('90d')).toBeUndefined();
    expect(parseDuration('90d', ['ms', 's', 'm', 'h', 'd'])).toBe(90 * 86_400_000);
    expect(parseDuration('5m', ['d'])).toBeUndefined();
  });

  it('says what a duration looks like', () => {
    expect(durationSyntax()).toBe('a number with ms, s, m or h (a bare number is seconds)');
    expect(durationSyntax(['s', 'd'])).toBe('a number with s or d (a bare number is seconds)');
  });
});

describe('formatDuration', () => {
  it('reads back short', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(5000)).toBe('5s');
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(600_000)).toBe('10m');
    expect(formatDuration(3_905_000)).toBe('1h5m5s');
  });
});
