/**
 * Seeders, the provider's side of data (ARCHITECTURE: above the store, beside admin/): the
 * default roles, the deterministic demo set, and bulk users and customers for benchmarks.
 */
export { DEFAULT_ROLES, ensureDefaultRoles } from './roles.js';
export { DEMO_MARKER_EMAIL, type DemoSummary, hasDemoData, seedDemo } from './demo.js';
export { seedBulk } from './bulk.js';
