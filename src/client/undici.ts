/**
 * undici's `request`, for modules that load it on first use (`await import('./undici.js')`). A
 * CommonJS package imported with `import()` straight from the bundle exposes only `default`;
 * through this ES module its named exports stay named.
 */
export { request } from 'undici';
