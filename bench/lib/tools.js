// The other tools a user might run instead for a local API, installed on first use into
// bench/.tools (git-ignored), never as dependencies of confctl.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../.tools', import.meta.url));
const PACKAGES = { 'json-server': '0.17.4', '@stoplight/prism-cli': '5' };

const packageJson = (name) => `${DIR}/node_modules/${name}/package.json`;

/** Whether the installed json-server is exactly 0.17.4 and a Prism 5 is present. */
function installed() {
  if (!existsSync(packageJson('json-server')) || !existsSync(packageJson('@stoplight/prism-cli'))) return false;
  const version = (name) => JSON.parse(readFileSync(packageJson(name), 'utf8')).version;
  return version('json-server') === PACKAGES['json-server'] && version('@stoplight/prism-cli').startsWith('5.');
}

/** Installs json-server and Prism unless present; answers their entry scripts and versions. */
export function ensureTools() {
  if (!installed()) {
    const specs = Object.entries(PACKAGES).map(([name, version]) => `${name}@${version}`);
    console.error(`installing ${specs.join(' ')} into ${DIR} (once)…`);
    const r = spawnSync('npm', ['install', '--prefix', DIR, '--no-audit', '--no-fund', ...specs], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0 || !installed()) throw new Error(`npm install --prefix ${DIR} ${specs.join(' ')} failed`);
  }
  const version = (name) => JSON.parse(readFileSync(packageJson(name), 'utf8')).version;
  return {
    jsonServer: { bin: `${DIR}/node_modules/json-server/lib/cli/bin.js`, version: version('json-server') },
    prism: { bin: `${DIR}/node_modules/@stoplight/prism-cli/dist/index.js`, version: version('@stoplight/prism-cli') },
  };
}
