import { describe, expect, it } from 'vitest';
import { AdminError } from '../../src/admin/errors.js';
import { checkDestinationUrl, isLoopbackHost, parseEventTypes, wants } from '../../src/webhooks/destinations.js';

describe('webhook destination URLs', () => {
  it('takes https anywhere and http only on loopback hosts', () => {
    expect(checkDestinationUrl('https://hooks.example.com/x')).toBe('https://hooks.example.com/x');
    for (const url of ['http://localhost:8090/', 'http://127.0.0.1:1/', 'http://127.9.9.9/', 'http://[::1]:8090/', 'http://app.localhost/']) {
      expect(checkDestinationUrl(url)).toBe(url);
    }
    for (const url of ['http://example.com/', 'http://10.0.0.1/', 'http://128.0.0.1/', 'http://localhost.example.com/']) {
      expect(() => checkDestinationUrl(url)).toThrow(/http:\/\/ is allowed only for loopback hosts/);
    }
  });

  it('refuses what is not a URL, other schemes and credentials, as invalid', () => {
    const kind = (url: string) => {
      try {
        checkDestinationUrl(url);
      } catch (err) {
        return [(err as AdminError).kind, (err as Error).message];
      }
      return undefined;
    };
    expect(kind('hooks.example.com')).toEqual(['invalid', "'hooks.example.com' is not a URL; give an absolute https:// URL"]);
    expect(kind('ftp://example.com/')?.[1]).toContain("not 'ftp:'");
    expect(kind('https://u:p@example.com/')?.[1]).toBe('a destination URL must not carry a user name or password');
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
  });
});

describe('event type filters', () => {
  it('parses a list without repeats, null without a flag, and names unknown types', () => {
    expect(parseEventTypes(undefined)).toBeNull();
    expect(parseEventTypes('events.created, events.deleted,events.created')).toEqual(['events.created', 'events.deleted']);
    expect(() => parseEventTypes('events.created,event.nope')).toThrow(/unknown event type 'event.nope'; the types are events.created/);
    expect(() => parseEventTypes(' , ')).toThrow(/names no event type/);
    expect(wants(null, 'events.updated')).toBe(true);
    expect(wants(['events.created'], 'events.updated')).toBe(false);
  });
});
