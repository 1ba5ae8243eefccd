/**
 * `/docs`: an interactive API reference (Redoc) that works offline. The page loads Redoc's
 * self-contained browser bundle from this server (copied into `dist/assets/` at build time by
 * scripts/copy-assets.js) and reads this server's own `openapi.json`. No web fonts, no CDN:
 * the Content-Security-Policy lets the page reach nothing but its own origin.
 */
import { readFileSync } from 'node:fs';
import { notFound } from './errors.js';
import type { Reply } from './reply.js';

export const DOCS_PATH = '/docs';
export const DOCS_BUNDLE_PATH = '/docs/redoc.standalone.js';

/**
 * Everything the page may load comes from its own origin. `unsafe-eval`: the bundle's JSON-schema
 * validator compiles functions; `unsafe-inline` styles: Redoc's styled-components inject style
 * rules; `blob:` workers: its search index runs in a worker built from an inlined script (child-src for browsers without worker-src).
 */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self'; worker-src 'self' blob:; child-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

/**
 * The page. Redoc starts itself on the `<redoc>` element; its attributes are Redoc options
 * (the document URL is relative, so it is this server's, whatever Host the browser used).
 */
export function docsPage(specPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>confctl API reference</title>
<style>body { margin: 0; font-family: system-ui, sans-serif; }</style>
</head>
<body>
<redoc spec-url="${specPath}"></redoc>
<script src="${DOCS_BUNDLE_PATH}"></script>
</body>
</html>
`;
}

const BUNDLE_URL = new URL('../../dist/assets/redoc.standalone.js', import.meta.url);
let bundle: string | undefined;

/** Redoc's bundle from the build output (src/ and dist/ both sit beside dist/), read once. */
export function docsBundle(): Reply {
  try {
    bundle ??= readFileSync(BUNDLE_URL, 'utf8');
  } catch {
    throw notFound();
  }
  return { status: 200, headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }, body: bundle };
}

export function docsReply(specPath: string): Reply {
  return {
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': DOCS_CSP },
    body: docsPage(specPath),
  };
}
