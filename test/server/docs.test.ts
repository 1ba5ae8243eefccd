/**
 * `/docs` works offline: the page and the Redoc bundle it loads come from this server, and the
 * page's Content-Security-Policy lets the browser reach nothing else. Needs the build's copy of
 * the bundle (`npm run build` puts it in dist/assets/).
 *
 * What the bundle still contains that is never fetched: JSON-schema `$id`/`$schema` identifiers
 * (json-schema.org, an ajv data.json id on raw.githubusercontent.com), XML/SVG namespace names
 * (w3.org), link targets a reader may click (redocly.com, marked.js.org) and URLs in error texts
 * (reactjs.org, mobx and polished on github.com, fb.me, git.io, stackoverflow.com), and
 * example.com placeholders, and `https://api.${…}/registry/` prefixes a reference is compared
 * with (Redocly's registry; nothing is loaded, our document has no external reference). The one it did fetch, the footer logo on cdn.redoc.ly, is replaced at
 * build time (scripts/copy-assets.js).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { API, setup, type Fixture } from './fixtures.js';

let f: Fixture;
afterEach(() => f?.store.close());

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const URL_RE = /\bhttps?:\/\/[^\s"'`)<>]+/g;

describe('/docs', () => {
  it('answers the reference page on any Host, without a key, never rate limited', async () => {
    f = setup({ rateLimit: { client: 1, tenant: 1 }, now: () => T0 });
    for (const host of ['localhost', 'nobody.test', 'localhost', 'x.y:1']) {
      const res = await f.app.request({ path: '/docs', headers: { host } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(`<redoc spec-url="${API}/openapi.json">`);
      expect(res.body).toContain('<script src="/docs/redoc.standalone.js"></script>');
    }
    const head = await f.app.request({ method: 'HEAD', path: '/docs' });
    expect([head.status, head.body]).toEqual([200, '']);
    expect((await f.app.request({ method: 'POST', path: '/docs' })).headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('references only its own origin: no absolute URL in the page, a policy that allows only self', async () => {
    f = setup();
    const res = await f.app.request({ path: '/docs' });
    expect(res.body.match(URL_RE)).toBeNull();
    expect(res.body).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}/i); // no protocol-relative URL either
    for (const [, attr, value] of res.body.matchAll(/\b(src|href|spec-url)="([^"]*)"/g)) expect(value, attr).toMatch(/^\/[^/]/);
    const csp = Object.fromEntries(res.headers['content-security-policy'].split('; ').map((d) => { const [name, ...sources] = d.split(' '); return [name, sources]; }));
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['connect-src']).toEqual(["'self'"]);
    for (const [directive, sources] of Object.entries(csp)) {
      for (const source of sources) expect(["'self'", "'none'", "'unsafe-eval'", "'unsafe-inline'", 'data:', 'blob:'], directive).toContain(source);
    }
  });

  it('serves the Redoc bundle, which fetches nothing from elsewhere', async () => {
    f = setup();
    const res = await f.app.request({ path: '/docs/redoc.standalone.js', headers: { host: 'nobody.test' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.body.length).toBeGreaterThan(500_000);
    // Booleans, not the 1 MB text, in failure messages.
    expect(res.body.includes('getAttribute("spec-url")')).toBe(true); // Redoc starts itself on the page's <redoc> element
    expect(res.body.includes('cdn.redoc.ly')).toBe(false);
    expect(/sourceMappingURL=\S+\s*$/.test(res.body)).toBe(false);
    // Resource loads with an absolute URL: an element's src, a CSS url(), fetch/XHR/import/worker of a literal.
    const loads = /(?:\bsrc\s*[:=]\s*|url\(\s*|\bfetch\(\s*|\.open\(\s*"[A-Z]+"\s*,\s*|import\(\s*|new Worker\(\s*)["'`]?https?:\/\//g;
    expect(res.body.match(loads)).toBeNull();
    expect(/fonts\.(googleapis|gstatic)\.com/.test(res.body)).toBe(false);
    // Every absolute URL left is one of the never-fetched kinds the module comment lists.
    const hosts = new Set([...res.body.matchAll(URL_RE)].map(([u]) => (u.includes('${') ? 'template' : new URL(u.replace(/[.,;]+$/, '')).hostname)));
    const known = ['json-schema.org', 'www.w3.org', 'raw.githubusercontent.com', 'redocly.com', 'marked.js.org', 'reactjs.org', 'github.com', 'fb.me', 'git.io', 'stackoverflow.com', 'example.com', 'template'];
    expect([...hosts].filter((h) => !known.includes(h))).toEqual([]);
  });
});
