/**
 * CORS for `serve --cors ORIGIN`: a browser page on a listed origin (an API explorer) may call
 * the server and read its rate-limit and id headers. Nothing is added for any other origin.
 */
const ALLOW_HEADERS = 'X-Access-Key-Id, X-Access-Key-Secret, Content-Type, X-Request-ID';
const EXPOSE_HEADERS = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Process-ID, X-Request-ID';

/** The CORS headers for a request from `origin` (the `Origin` header), or none when it is not allowed. */
export function corsHeaders(allowed: readonly string[], origin: string | undefined, preflightAllow?: readonly string[]): Record<string, string> {
  if (allowed.length === 0) return {};
  // The answer depends on Origin whenever CORS is on, so caches must key on it.
  if (origin === undefined || !allowed.includes(origin)) return { Vary: 'Origin' };
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': EXPOSE_HEADERS,
    Vary: 'Origin',
  };
  if (preflightAllow) {
    headers['Access-Control-Allow-Methods'] = preflightAllow.join(', ');
    headers['Access-Control-Allow-Headers'] = ALLOW_HEADERS;
  }
  return headers;
}
