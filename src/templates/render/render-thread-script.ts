import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where the render thread's script is. From tsc's output (dist/src/templates/render/) it sits
 * next to this module. From the TypeScript sources (Jest transforms .ts with SWC, and a worker
 * thread cannot load .ts) it is the same path under the package's dist/: `npm test` compiles it
 * first (pretest), so tests run the real thread, built from the same sources.
 */
export function renderThreadScript(): URL {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'render-thread.js')];
  const root = packageRoot(here);
  if (root) candidates.push(join(root, 'dist', relative(root, here), 'render-thread.js'));
  const found = candidates.find((path) => existsSync(path));
  if (!found)
    throw new Error(
      `the template render thread's script is missing (looked in ${candidates.join(', ')}): run npm run build`,
    );
  return pathToFileURL(found);
}

function packageRoot(from: string): string | undefined {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'notifyd')
        return dir;
    } catch {
      // no package.json here: keep walking up
    }
  }
  return undefined;
}
