/** The contract: resource schemas, request bodies, list queries and the operation table. */
export * from './common.js';
export * from './messages.js';
export * from './resources.js';
export * from './bodies.js';
export * from './dates.js';
export * from './list-query.js';
export * from './validation.js';
export * from './operations.js';
export * from './permissions.js';
