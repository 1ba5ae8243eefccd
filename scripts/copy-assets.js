// Build step: copies Redoc's self-contained browser bundle (and its licence notices) into
// dist/assets/, so the installed package serves /docs offline without Redoc's dependency tree.
// The one resource the bundle would fetch from elsewhere, the footer's logo image, is replaced
// by an empty data: URL (the component hides a logo that fails to load); the source-map comment
// is dropped (the map is not shipped).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const source = require.resolve('redoc/bundles/redoc.standalone.js');
const LOGO = 'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"';

let text = readFileSync(source, 'utf8');
if (!text.includes(LOGO)) throw new Error(`copy-assets: ${source} no longer holds the expected logo URL; check it for external fetches`);
text = text.replace(LOGO, 'src:"data:,"').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
mkdirSync('dist/assets', { recursive: true });
writeFileSync('dist/assets/redoc.standalone.js', text);
copyFileSync(`${source}.LICENSE.txt`, 'dist/assets/redoc.standalone.js.LICENSE.txt');
