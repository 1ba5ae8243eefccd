/**
 * cli-table3's table class, loaded when a table is printed (`await import('./cli-table3.js')`):
 * the bundle build refuses `import()` of a CommonJS package itself (scripts/bundle.js).
 */
export { default } from 'cli-table3';
