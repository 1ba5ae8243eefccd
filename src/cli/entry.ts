/**
 * The bundle's entry, run by bin/confctl.js. `confctl --version` (or `-v`) alone is answered here
 * without loading commander or anything else, since it is the start-up floor; every other command
 * line goes to main.ts, loaded as a chunk.
 */
import { writeSync } from 'node:fs';
import { version } from './version.js';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  writeSync(1, `${version()}\n`);
} else {
  await (await import('./main.js')).main();
}
