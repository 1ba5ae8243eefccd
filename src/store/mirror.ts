/**
 * The port `confctl mirror` writes through: rows with their source ids and timestamps, into a
 * data directory's database (see sqlite/mirror-rows.ts). A mirror to PostgreSQL is built in a
 * data directory first and moved with `admin copy`'s machinery.
 */
export { type MirrorRows, openMirrorRows } from './sqlite/mirror-rows.js';
