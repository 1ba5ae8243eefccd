/**
 * The yaml package's `stringify`, loaded when YAML is printed (`await import('./yaml.js')`). A
 * CommonJS package imported with `import()` straight from the bundle exposes only `default`;
 * through this ES module its named exports stay named.
 */
export { stringify } from 'yaml';
