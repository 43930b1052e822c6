import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpToolRegistry } from '../src/mcp/mcp-tool-registry.js';
import { renderLlmsTxt, withToolsTable, type OpenApiDocument } from '../src/mcp/llms/llms-txt.js';
import { toolListing } from '../src/mcp/server/mcp-server.factory.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const docs = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs');

/** The first line where two texts differ, to say what is stale. */
function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  const i = a.findIndex((line, n) => line !== e[n]);
  const at = i < 0 ? Math.min(a.length, e.length) : i;
  return `line ${at + 1}: file has ${JSON.stringify(a[at] ?? '<end>')}, the code gives ${JSON.stringify(e[at] ?? '<end>')}`;
}

/** docs/llms.txt and the MCP tools table are generated; this fails while they are stale. */
describe('generated docs for agents', () => {
  let app: TestApp;
  let document: OpenApiDocument;
  let tools: ReturnType<typeof toolListing>[];

  beforeAll(async () => {
    app = await startTestApp();
    document = (await app.http.get('/docs/json')).body;
    tools = app.notifyd.app
      .get(McpToolRegistry)
      .all()
      .map((t) => toolListing(t));
  });
  afterAll(() => app.close());

  it('docs/llms.txt matches the API and the MCP tools (run `npm run llms` after changing either)', () => {
    const file = readFileSync(join(docs, 'llms.txt'), 'utf8');
    const fresh = renderLlmsTxt(document, tools);
    if (file !== fresh)
      throw new Error(`docs/llms.txt is stale: run \`npm run llms\` and commit it (${firstDifference(file, fresh)})`);
    // It covers every route and every tool.
    for (const path of Object.keys(document.paths)) expect(file).toContain(` ${path}\n`);
    for (const tool of tools) expect(file).toContain(`### ${tool.name}\n`);
  });

  it('docs/MCP.md lists every tool with its annotations (run `npm run llms` after changing a tool)', () => {
    const file = readFileSync(join(docs, 'MCP.md'), 'utf8');
    const fresh = withToolsTable(file, tools);
    if (file !== fresh)
      throw new Error(
        `docs/MCP.md's tools table is stale: run \`npm run llms\` and commit it (${firstDifference(file, fresh)})`,
      );
    expect(file).toMatch(/\| `cancel_job` \| Cancel a job \| – \| yes \| yes \| – \|/);
  });
});
