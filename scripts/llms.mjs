// Regenerates docs/llms.txt and the tools table of docs/MCP.md from the OpenAPI document and
// the MCP tool registry: `npm run llms` (it builds first). test/llms.e2e-spec.ts fails while
// either file is stale. The application needs a database to boot: with DATABASE_URL, a
// temporary database created on that server (and dropped afterwards); otherwise an embedded
// PostgreSQL in a temporary directory that is removed afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../dist/src/app.setup.js';
import { startNotifyd } from '../dist/src/main.js';
import { McpToolRegistry } from '../dist/src/mcp/mcp-tool-registry.js';
import { renderLlmsTxt, withToolsTable } from '../dist/src/mcp/llms/llms-txt.js';
import { toolListing } from '../dist/src/mcp/server/mcp-server.factory.js';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = process.env.DATABASE_URL;
const scratch = `notifyd_llms_${process.pid}`;
const admin = async (sql) => {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};
let databaseUrl;
if (server) {
  await admin(`CREATE DATABASE ${scratch}`);
  const url = new URL(server);
  url.pathname = `/${scratch}`;
  databaseUrl = url.toString();
}
const dataDir = server ? undefined : mkdtempSync(join(tmpdir(), 'notifyd-llms-'));
const notifyd = await startNotifyd({
  // A scratch instance: with a database given it is a production start, which needs a JWT_SECRET (any will do here).
  env: { ...process.env, NOTIFYD_ROLE: 'api', LOG_LEVEL: 'error', ...(databaseUrl ? { DATABASE_URL: databaseUrl, JWT_SECRET: process.env.JWT_SECRET || randomBytes(24).toString('hex') } : { NOTIFYD_DATA_DIR: dataDir }) },
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
  if (server) await admin(`DROP DATABASE IF EXISTS ${scratch}`);
}
