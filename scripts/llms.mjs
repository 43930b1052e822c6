// Regenerates docs/llms.txt and the tools table of docs/MCP.md from the OpenAPI document and
// the MCP tool registry: `npm run llms` (it builds first). test/llms.e2e-spec.ts fails while
// either file is stale. The application boots on a scratch database (scripts/lib/scratch-notifyd.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../dist/src/app.setup.js';
import { McpToolRegistry } from '../dist/src/mcp/mcp-tool-registry.js';
import { renderLlmsTxt, withToolsTable } from '../dist/src/mcp/llms/llms-txt.js';
import { toolListing } from '../dist/src/mcp/server/mcp-server.factory.js';
import { startScratchNotifyd } from './lib/scratch-notifyd.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = await startScratchNotifyd({ env: { NOTIFYD_ROLE: 'api' }, name: 'llms' });
const notifyd = scratch.notifyd;
try {
  const document = await buildOpenApiDocument(notifyd.app);
  const tools = notifyd.app.get(McpToolRegistry).all().map(toolListing);
  writeFileSync(join(root, 'docs', 'llms.txt'), renderLlmsTxt(document, tools));
  const mcpDoc = join(root, 'docs', 'MCP.md');
  writeFileSync(mcpDoc, withToolsTable(readFileSync(mcpDoc, 'utf8'), tools));
  process.stdout.write(
    `docs/llms.txt and docs/MCP.md regenerated (${Object.keys(document.paths).length} paths, ${tools.length} tools)\n`,
  );
} finally {
  await scratch.close();
}
