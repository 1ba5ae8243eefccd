#!/usr/bin/env node
// CommonJS (bin/package.json), so that `confctl --version`, the start-up floor, is answered
// without starting Node's ES module loader; everything else runs the ES module bundle.
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  import('../dist/bundle/confctl.js');
}
