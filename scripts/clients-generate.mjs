// Regenerates both clients' types from the application's OpenAPI document:
// `npm run clients:generate` (it builds first). It writes
//   clients/openapi.json                     the document itself (what both generators read);
//   clients/typescript/src/schema.ts         openapi-typescript's `paths` and `components`;
//   clients/python/notifyd/_schema.py        TypedDicts, by clients/python/generate_types.py.
// CI (.ci/run) runs it and fails when `git diff clients/` is not empty: the committed clients
// never drift from the API. Needs `npm ci --prefix clients/typescript` once (openapi-typescript).
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../dist/src/app.setup.js';
import { startScratchNotifyd } from './lib/scratch-notifyd.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const clients = join(root, 'clients');
const generator = join(clients, 'typescript', 'node_modules', '.bin', 'openapi-typescript');
if (!existsSync(generator)) {
  process.stderr.write('clients/typescript/node_modules is missing: run `npm ci --prefix clients/typescript` first\n');
  process.exit(1);
}

const scratch = await startScratchNotifyd({ env: { NOTIFYD_ROLE: 'api' }, name: 'clients' });
let document;
try {
  document = await buildOpenApiDocument(scratch.notifyd.app);
} finally {
  await scratch.close();
}
const openapi = join(clients, 'openapi.json');
writeFileSync(openapi, `${JSON.stringify(document, null, 2)}\n`);
execFileSync(
  generator,
  [openapi, '--output', join(clients, 'typescript', 'src', 'schema.ts'), '--root-types', '--alphabetize'],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
execFileSync(
  'python3',
  [join(clients, 'python', 'generate_types.py'), openapi, join(clients, 'python', 'notifyd', '_schema.py')],
  { stdio: 'inherit' },
);
process.stdout.write(
  `clients regenerated from the OpenAPI document (${Object.keys(document.paths).length} paths, ${Object.keys(document.components?.schemas ?? {}).length} schemas)\n`,
);
