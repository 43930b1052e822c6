// Bundles the operator console (src/console/web/) into dist/console/: index.html, console.js
// (Preact + htm and the pages, minified, one ES module) and console.css. notifyd serves these
// files from memory (src/console/console-assets.controller.ts); nothing is fetched at run time.
// Fails the build when the script bundle passes 150 KB gzipped (issue 24's budget).
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'console', 'web');
const out = join(root, 'dist', 'console');
const BUDGET_BYTES = 150 * 1024;

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(source, 'main.js')],
  outfile: join(out, 'console.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  target: ['es2022'],
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(source, 'index.html'), join(out, 'index.html'));
copyFileSync(join(source, 'console.css'), join(out, 'console.css'));

const gzipped = ['console.js', 'console.css', 'index.html'].reduce(
  (sum, name) => sum + gzipSync(readFileSync(join(out, name))).length,
  0,
);
if (gzipped > BUDGET_BYTES) {
  console.error(`console bundle is ${gzipped} bytes gzipped, over the ${BUDGET_BYTES}-byte budget`);
  process.exit(1);
}
if (process.env.CONSOLE_BUILD_REPORT) console.log(`console: ${gzipped} bytes gzipped (budget ${BUDGET_BYTES})`);
