// `npm run docs:gen`: writes the command reference (docs/commands/, man/, package.json's "man")
// from the command tree. Run it after changing any command's flags, help text or examples; a test
// (test/cli/reference/fresh.test.ts) fails until the files match the code.
import { resolve } from 'node:path';
import { writeReference } from '../src/cli/reference/files.js';

const root = resolve(import.meta.dirname, '..');
const written = await writeReference(root);
process.stdout.write(`docs:gen: ${written ? `${written} file(s) written` : 'up to date'}\n`);
