// Regenerates docs/llms.txt and the tools table of docs/MCP.md from the OpenAPI document and
// the MCP tool registry: `npm run llms` (it builds first). test/llms.e2e-spec.ts fails while
// either file is stale. The application needs a database to boot: DATABASE_URL if set (its
// migrations are applied, as on start), otherwise an embedded PostgreSQL in a temporary
// directory that is removed afterwards.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../dist/src/app.setup.js';
import { startNotifyd } from '../dist/src/main.js';
import { McpToolRegistry } from '../dist/src/mcp/mcp-tool-registry.js';
import { renderLlmsTxt, withToolsTable } from '../dist/src/mcp/llms/llms-txt.js';
import { toolListing } from '../dist/src/mcp/server/mcp-server.factory.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'notifyd-llms-'));
const notifyd = await startNotifyd({
  env: { ...process.env, NOTIFYD_ROLE: 'api', LOG_LEVEL: 'error', ...(dataDir ? { NOTIFYD_DATA_DIR: dataDir } : {}) },
  listen: false,
  logger: false,
});
try {
  const document = await buildOpenApiDocument(notifyd.app);
  const tools = notifyd.app.get(McpToolRegistry).all().map(toolListing);
  writeFileSync(join(root, 'docs', 'llms.txt'), renderLlmsTxt(document, tools));
  const mcpDoc = join(root, 'docs', 'MCP.md');
  writeFileSync(mcpDoc, withToolsTable(readFileSync(mcpDoc, 'utf8'), tools));
  process.stdout.write(`docs/llms.txt and docs/MCP.md regenerated (${Object.keys(document.paths).length} paths, ${tools.length} tools)\n`);
} finally {
  await notifyd.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
