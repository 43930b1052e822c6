import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES } from '../src/config/app-config.js';
import {
  configTable,
  llmsTools,
  routeMentions,
  toolMentions,
  toolsTable,
  type RouteMention,
} from './helpers/doc-promises.js';
import { connectMcp } from './helpers/mcp-client.js';
import { ADMIN_KEY, startTestApp, type TestApp } from './helpers/test-app.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
/** Every document a reader or an agent is pointed at, the module READMEs that docs/ARCHITECTURE.md links to included. */
const moduleReadmes = (dir: string) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f === 'README.md' || f.endsWith('/README.md'))
    .map((f) => `${dir}/${f}`);
const DOCS = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md') || f === 'llms.txt')
    .map((f) => `docs/${f}`),
  ...moduleReadmes('src'),
  'test/README.md',
];

interface Schema {
  $ref?: string;
  properties?: Record<string, unknown>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}
interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** The operation a documented path names: its template's literal segments equal, `{param}` for any. The most literal wins. */
function operationFor(doc: OpenApi, method: string, path: string): { template: string; op: Operation } | undefined {
  const segments = path.split('/');
  let best: { template: string; op: Operation; literal: number } | undefined;
  for (const [template, ops] of Object.entries(doc.paths)) {
    const op = ops[method.toLowerCase()];
    const parts = template.split('/');
    if (!op || parts.length !== segments.length) continue;
    let literal = 0;
    const fits = parts.every((part, i) => /^\{.+\}$/.test(part) || (part === segments[i] && ++literal > 0));
    if (fits && (!best || literal > best.literal)) best = { template, op, literal };
  }
  return best;
}

/** Field names of a schema (through $ref, allOf, oneOf); undefined when it is free-form. */
function propertiesOf(doc: OpenApi, schema: Schema | undefined): Set<string> | undefined {
  if (!schema) return undefined;
  if (schema.$ref) return propertiesOf(doc, doc.components.schemas[schema.$ref.split('/').pop()!]);
  const parts = schema.allOf ?? schema.oneOf ?? schema.anyOf;
  if (parts) {
    const sets = parts.map((s) => propertiesOf(doc, s)).filter((s): s is Set<string> => s !== undefined);
    return sets.length ? new Set(sets.flatMap((s) => [...s])) : undefined;
  }
  return schema.properties ? new Set(Object.keys(schema.properties)) : undefined;
}

const where = (m: { file: string; line: number }) => `${m.file}:${m.line}`;

/**
 * What README.md, docs/*.md and docs/llms.txt promise exists: every route they name is in the
 * running app's OpenAPI document (or, outside /v1, in Fastify's route table), with the query
 * parameters and fields they list; every MCP tool they name is in tools/list; every variable
 * of the README's configuration table is declared by a config section, and every declared one
 * has its row. A failure lists each broken promise with its file and line.
 */
describe('the docs promise only what exists', () => {
  let t: TestApp;
  let openapi: OpenApi;
  let mcp: Client;
  let tools: Set<string>;

  beforeAll(async () => {
    t = await startTestApp();
    openapi = (await t.http.get('/docs/json')).body;
    mcp = await connectMcp(t.url, ADMIN_KEY);
    tools = new Set((await mcp.listTools()).tools.map((tool) => tool.name));
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  it('finds what it checks (the parsers still read the docs)', () => {
    const routes = DOCS.flatMap((file) => routeMentions(file, read(file)));
    expect(routes.length).toBeGreaterThan(150);
    expect(routes).toContainEqual(expect.objectContaining({ file: 'docs/API.md', method: 'DELETE', path: '/mcp' }));
    expect(routes).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        path: '/v1/templates',
        query: ['limit', 'cursor', 'channel'],
        fields: ['items', 'next_cursor', 'total', 'limit', 'offset'],
      }),
    );
    expect(routes.filter((r) => r.path === '/v1/send-window').map((r) => r.method)).toEqual(
      expect.arrayContaining(['GET', 'PUT', 'DELETE']),
    );
    expect(toolsTable(read('docs/MCP.md')).length).toBe(tools.size);
    expect(toolMentions('docs/OPERATIONS.md', read('docs/OPERATIONS.md')).map((m) => m.tool)).toEqual(
      expect.arrayContaining(['list_jobs', 'retry_job', 'update_project']),
    );
    expect(configTable(read('README.md')).variables.size).toBeGreaterThan(100);
  });

  it('every route the docs name exists, with the query parameters and fields they list', () => {
    const fastify = (t.notifyd.app as NestFastifyApplication).getHttpAdapter().getInstance();
    const broken: string[] = [];
    const check = (m: RouteMention) => {
      const found = operationFor(openapi, m.method, m.path);
      if (!found) {
        // Outside /v1 (MCP, unsubscribe pages, tracking, the inbox component): Fastify's table.
        const concrete = m.path.replace(/\/(?::[^/]+|\{[^/]+\}|<[^/]+>)/g, '/x0');
        if (m.path.startsWith('/v1/') || !fastify.findRoute({ method: m.method as 'GET', url: concrete }))
          broken.push(`${where(m)}: ${m.method} ${m.path} has no route`);
        return;
      }
      const query = new Set((found.op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
      for (const name of m.query)
        if (!query.has(name)) broken.push(`${where(m)}: ${m.method} ${m.path} takes no query parameter '${name}'`);
      const body = propertiesOf(openapi, found.op.requestBody?.content?.['application/json']?.schema);
      if (body)
        for (const name of m.body)
          if (!body.has(name)) broken.push(`${where(m)}: ${m.method} ${m.path} has no body field '${name}'`);
      const success = Object.entries(found.op.responses ?? {}).find(([code]) => code.startsWith('2'))?.[1];
      const answer = propertiesOf(openapi, success?.content?.['application/json']?.schema);
      if (m.fields.length && !answer)
        broken.push(
          `${where(m)}: ${m.method} ${m.path} documents fields {${m.fields.join(', ')}} but its answer has no schema`,
        );
      if (answer)
        for (const name of m.fields)
          if (!answer.has(name)) broken.push(`${where(m)}: ${m.method} ${m.path} answers no field '${name}'`);
    };
    for (const file of DOCS) for (const mention of routeMentions(file, read(file))) check(mention);
    expect(broken).toEqual([]);
  });

  it('every MCP tool the docs name is in tools/list, and the tools table lists every tool', () => {
    const table = toolsTable(read('docs/MCP.md'));
    const broken = [
      ...table
        .filter((name) => !tools.has(name))
        .map((name) => `docs/MCP.md tools table: ${name} is not in tools/list`),
      ...[...tools].filter((name) => !table.includes(name)).map((name) => `docs/MCP.md tools table lacks ${name}`),
      ...llmsTools(read('docs/llms.txt'))
        .filter((name) => !tools.has(name))
        .map((name) => `docs/llms.txt: tool ${name} is not in tools/list`),
      ...DOCS.flatMap((file) => toolMentions(file, read(file)))
        .filter((m) => !tools.has(m.tool))
        .map((m) => `${where(m)}: tool ${m.tool} is not in tools/list`),
    ];
    expect(broken).toEqual([]);
  });

  it('the README configuration table and the config sections name the same variables', () => {
    const { variables, patterns } = configTable(read('README.md'));
    const declared = new Set(CONFIG_VARIABLES);
    const covered = (name: string) =>
      variables.has(name) || patterns.some((p) => new RegExp(`^[A-Z]+${p.suffix}$`).test(name));
    const broken = [
      ...[...variables]
        .filter(([name]) => !declared.has(name))
        .map(([name, line]) => `README.md:${line}: ${name} is declared by no section under src/config/sections/`),
      ...patterns
        .filter((p) => !CONFIG_VARIABLES.some((name) => name.endsWith(p.suffix)))
        .map((p) => `README.md:${p.line}: no variable ends with ${p.suffix}`),
      ...CONFIG_VARIABLES.filter((name) => !covered(name)).map(
        (name) => `${name} (a config section) has no row in the README's configuration table`,
      ),
    ];
    expect(broken).toEqual([]);
  });
});
