import { describe, expect, it } from 'vitest';
import { eventOf, ndjsonLine, tableHeading, tableRow } from '../../src/cli/commands/webhooks/print.js';
import { forwardedHeaders } from '../../src/cli/commands/webhooks/forward.js';
import { parseListenOptions, parseVerifyOptions } from '../../src/cli/commands/webhooks/index.js';
import { fake } from './helpers.js';

const row = { id: 'evt_1', timestamp: '2026-11-23T20:30:00.000Z', event: 'events.created', data: { id: 42, calendar_id: 7 }, status: 200 };

describe('listen flags', () => {
  it('defaults: port 8090 on 127.0.0.1, 300 s, table on a terminal and NDJSON in a pipe', () => {
    const tty = parseListenOptions({}, fake({ tty: true }).ctx);
    expect(tty).toEqual({ port: 8090, host: '127.0.0.1', secret: { from: 'none' }, maxAgeSeconds: 300, format: 'table' });
    expect(parseListenOptions({}, fake().ctx).format).toBe('ndjson');
    expect(parseListenOptions({}, fake({ tty: true }).ctx, 'ndjson').format).toBe('ndjson');
  });

  it('the secret: --secret, else CONFCTL_WEBHOOK_SECRET', () => {
    expect(parseListenOptions({ secret: 's1' }, fake({ env: { CONFCTL_WEBHOOK_SECRET: 'e' } }).ctx).secret).toEqual({ secret: 's1', from: 'flag' });
    expect(parseListenOptions({}, fake({ env: { CONFCTL_WEBHOOK_SECRET: 'e' } }).ctx).secret).toEqual({ secret: 'e', from: 'env' });
    expect(() => parseListenOptions({ secret: '' }, fake().ctx)).toThrow(/--secret is empty/);
  });

  it('--forward-to, --cert/--key and --port are checked', () => {
    const o = parseListenOptions({ forwardTo: 'https://example.com/h', cert: 'c', key: 'k', port: '0' }, fake().ctx);
    expect(o.forwardTo?.href).toBe('https://example.com/h');
    expect(o.tls).toEqual({ certFile: 'c', keyFile: 'k' });
    expect(o.port).toBe(0);
    expect(() => parseListenOptions({ port: '70000' }, fake().ctx)).toThrow(/--port must be/);
    expect(() => parseListenOptions({ key: 'k' }, fake().ctx)).toThrow(/--cert and --key go together/);
  });
});

describe('verify flags', () => {
  it('needs a secret and one source of the capture', () => {
    expect(parseVerifyOptions('d.http', { secret: 's', maxAge: '0' }, fake().ctx)).toEqual({ secret: 's', maxAgeSeconds: 0, headers: [], file: 'd.http' });
    expect(() => parseVerifyOptions('d.http', {}, fake().ctx)).toThrow(/needs the secret/);
    expect(() => parseVerifyOptions(undefined, { secret: 's', header: ['A: b'] }, fake().ctx)).toThrow(/go together/);
  });
});

describe('printing a delivery', () => {
  it('NDJSON: one line with id, timestamp, event, data and status', () => {
    expect(ndjsonLine(row)).toBe('{"id":"evt_1","timestamp":"2026-11-23T20:30:00.000Z","event":"events.created","data":{"id":42,"calendar_id":7},"status":200}\n');
  });

  it('a table row aligned under its heading, data cut to the width', () => {
    const heading = tableHeading();
    const line = tableRow(row, 200);
    expect(heading.indexOf('EVENT')).toBe(line.indexOf('events.created'));
    expect(heading.indexOf('DATA')).toBe(line.indexOf('{"id":42'));
    expect(line.trimEnd().endsWith('{"id":42,"calendar_id":7}')).toBe(true);
    expect(tableRow(row)).toBe(line);
    const width = heading.indexOf('DATA') + 12;
    const narrow = tableRow(row, width);
    expect(narrow).toMatch(/ \{"id":42,"c…\n$/);
    expect(narrow.length - 1).toBe(width);
    expect(tableRow({ ...row, event: null, data: null }, 200)).toMatch(/ - +evt_1 +-\n$/);
  });

  it('reads the event type and data of an event body, nulls otherwise', () => {
    expect(eventOf(Buffer.from('{"event":"events.updated","data":{"id":1}}'))).toEqual({ event: 'events.updated', data: { id: 1 } });
    expect(eventOf(Buffer.from('[1]'))).toEqual({ event: null, data: null });
    expect(eventOf(Buffer.from('{'))).toEqual({ event: null, data: null });
  });
});

describe('forwarded headers', () => {
  it('keeps names, order and values; sets Host and Content-Length; drops per-connection headers', () => {
    const raw = ['Host', 'localhost:8090', 'X-Webhook-Id', 'a', 'Connection', 'keep-alive', 'Transfer-Encoding', 'chunked', 'x-custom', 'v', 'X-Custom', 'w'];
    expect(forwardedHeaders(raw, 'target:3000', 12)).toEqual(['Host', 'target:3000', 'X-Webhook-Id', 'a', 'x-custom', 'v', 'X-Custom', 'w', 'Content-Length', '12']);
    expect(forwardedHeaders(['Content-Length', '99', 'constructor', 'x'], 'h', 3)).toEqual(['Content-Length', '3', 'constructor', 'x', 'Host', 'h']);
  });
});
