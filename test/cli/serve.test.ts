import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseServeOptions } from '../../src/cli/commands/serve/index.js';
import { baseUrlFor, listenError } from '../../src/cli/commands/listen-address.js';
import { CliError } from '../../src/cli/errors.js';

describe('serve flags', () => {
  it('has the documented defaults', () => {
    expect(parseServeOptions({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      data: undefined,
      demo: false,
      rateLimit: { client: 5, tenant: 10 },
      maxAttendees: 5,
      trustProxy: false,
      profile: { name: 'local', force: false },
      log: 'pretty',
      connections: { timeouts: { headersMs: 20_000, requestMs: 30_000 }, maxConnections: 500, maxConnectionsPerAddress: 100 },
      strict: false,
      cors: [],
      clock: 'real',
      testControls: null,
    });
  });

  it('parses every flag', () => {
    const o = parseServeOptions({
      ...{ port: '0', host: '0.0.0.0', data: '/d', demo: true, rateLimit: 'off', maxAttendees: '8', trustProxy: true, profile: false, log: 'json', strict: true, cors: ['http://localhost:3000'], clock: 'manual' },
      ...{ headersTimeout: '5', requestTimeout: '9', maxConnections: '64', maxConnectionsPerAddress: '8' },
    });
    expect(o).toEqual({
      ...{ port: 0, host: '0.0.0.0', data: '/d', demo: true, rateLimit: null, maxAttendees: 8, trustProxy: true, profile: null, log: 'json', strict: true, cors: ['http://localhost:3000'], clock: 'manual' },
      connections: { timeouts: { headersMs: 5000, requestMs: 9000 }, maxConnections: 64, maxConnectionsPerAddress: 8 },
      testControls: null,
    });
    expect(parseServeOptions({ testControls: true }).testControls).toEqual({});
    expect(parseServeOptions({ testControls: true, controlTokenFile: '/t' }).testControls).toEqual({ tokenFile: '/t' });
    expect(() => parseServeOptions({ controlTokenFile: '/t' })).toThrow('--control-token-file needs --test-controls');
    expect(parseServeOptions({ profileName: 'dev', force: true }).profile).toEqual({ name: 'dev', force: true });
    // No per-address cap with 'off', nor by default behind a trusted proxy (every connection is the proxy's).
    expect(parseServeOptions({ maxConnectionsPerAddress: 'off' }).connections.maxConnectionsPerAddress).toBeNull();
    expect(parseServeOptions({ trustProxy: true }).connections.maxConnectionsPerAddress).toBeNull();
    expect(parseServeOptions({ trustProxy: true, maxConnectionsPerAddress: '20' }).connections.maxConnectionsPerAddress).toBe(20);
    expect(() => parseServeOptions({ profileName: 'a b' })).toThrow(/profile name 'a b' may hold only/);
    expect(() => parseServeOptions({ profile: false, profileName: 'dev' })).toThrow('--no-profile does not go with --profile-name or --force');
  });

  it('reads --cors as repeated or comma-separated origins, and rejects anything but an origin', () => {
    const cors = (values: string[]) => parseServeOptions({ cors: values }).cors;
    expect(cors(['https://a.example,http://localhost:3000', 'https://b.example:8443', 'https://a.example'])).toEqual(['https://a.example', 'http://localhost:3000', 'https://b.example:8443']);
    for (const bad of ['a.example', 'https://a.example/', 'https://a.example/docs', 'ftp://a.example', '*']) expect(() => cors([bad]), bad).toThrow(/--cors/);
  });

  it('reads --rate-limit as CLIENT[/TENANT] or off', () => {
    expect(parseRateLimit('off')).toBeNull();
    expect(parseRateLimit('3/7')).toEqual({ client: 3, tenant: 7 });
    expect(parseRateLimit('20')).toEqual({ client: 20, tenant: 20 });
    expect(parseRateLimit('2')).toEqual({ client: 2, tenant: 10 });
    for (const bad of ['', 'fast', '0', '5/', '5/0', '-1']) expect(() => parseRateLimit(bad), bad).toThrow(/--rate-limit/);
  });

  it('rejects bad numbers with a usage error', () => {
    expect(() => parseServeOptions({ port: 'http' })).toThrow(/--port/);
    expect(() => parseServeOptions({ maxAttendees: '0' })).toThrow(/--max-attendees/);
    for (const [flag, key, bad] of [
      ['--headers-timeout', 'headersTimeout', '0'],
      ['--request-timeout', 'requestTimeout', '1.5'],
      ['--max-connections', 'maxConnections', 'lots'],
    ]) {
      expect(() => parseServeOptions({ [key]: bad }), flag).toThrow(new RegExp(`^${flag} must be a whole number of at least 1, not '${bad}'`));
    }
    expect(() => parseServeOptions({ maxConnectionsPerAddress: '-2' })).toThrow("--max-connections-per-address must be a whole number of at least 1 or 'off', not '-2'");
    expect(() => parseServeOptions({ headersTimeout: '40' })).toThrow("--headers-timeout (40 s) must not be longer than --request-timeout (30 s)");
  });

  it('derives the client base URL from the bound address', () => {
    expect(baseUrlFor('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080/api/public/v2.0');
    expect(baseUrlFor('0.0.0.0', 1)).toBe('http://localhost:1/api/public/v2.0');
    expect(baseUrlFor('::1', 2)).toBe('http://[::1]:2/api/public/v2.0');
  });
});

describe('listen errors', () => {
  const err = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

  it('say what went wrong and what to do', () => {
    const inUse = listenError(err('EADDRINUSE'), { host: '127.0.0.1', port: 8080 }) as CliError;
    expect(inUse).toBeInstanceOf(CliError);
    expect(inUse.message).toBe('cannot listen on 127.0.0.1:8080: the port is already in use');
    expect(inUse.hint).toContain('--port 0');
    expect(listenError(err('EADDRNOTAVAIL'), { host: '203.0.113.7', port: 1 }).message).toContain('not an address of this machine');
    expect(listenError(err('EACCES'), { host: '127.0.0.1', port: 80 }).message).toContain('permission denied');
    const other = err('EMFILE');
    expect(listenError(other, { host: 'h', port: 1 })).toBe(other);
  });
});
