/** The API client (spec §4, decisions §2 and §5). */
export * from './client.js';
export * from './errors.js';
export type * from './types.js';
