import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * docs/llms.txt: the whole API and the MCP tools as plain text for a coding agent, rendered
 * from the OpenAPI document and the tool registry (so it cannot drift; a test compares the
 * file with a fresh rendering). Format after llmstxt.org: a title, a summary, then sections.
 */

interface Schema {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  nullable?: boolean;
  default?: unknown;
  example?: unknown;
}

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const oneLine = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

function refName(ref: string): string {
  return ref.split('/').pop()!;
}

function typeOf(schema: Schema | undefined, doc: OpenApiDocument): string {
  if (!schema) return 'any';
  if (schema.$ref) return refName(schema.$ref);
  if (schema.allOf?.length === 1) return typeOf(schema.allOf[0], doc);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join('|');
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map((s) => typeOf(s, doc)).join('|');
  if (schema.type === 'array') return `${typeOf(schema.items, doc)}[]`;
  const type = Array.isArray(schema.type) ? schema.type.join('|') : (schema.type ?? 'object');
  return schema.nullable ? `${type}|null` : type;
}

function resolve(schema: Schema | undefined, doc: OpenApiDocument): Schema | undefined {
  if (schema?.$ref) return doc.components?.schemas?.[refName(schema.$ref)];
  if (schema?.allOf?.length === 1) return resolve(schema.allOf[0], doc);
  return schema;
}

/** `- name (type, required): description` for each property of an object schema. */
function fields(schema: Schema | undefined, doc: OpenApiDocument, indent = ''): string[] {
  const resolved = resolve(schema, doc);
  if (!resolved?.properties) return [];
  const required = new Set(resolved.required ?? []);
  return Object.entries(resolved.properties).map(([name, prop]) => {
    const bits = [
      typeOf(prop, doc),
      required.has(name) ? 'required' : undefined,
      prop.default !== undefined ? `default ${JSON.stringify(prop.default)}` : undefined,
    ].filter(Boolean);
    const description = oneLine(prop.description);
    return `${indent}- ${name} (${bits.join(', ')})${description ? `: ${description}` : ''}`;
  });
}

function auth(method: string, path: string, op: Operation): string {
  if (!op.security?.length) return 'no key';
  if (path.startsWith('/v1/admin')) return method === 'get' ? 'admin key or read-only key' : 'admin key';
  return 'project key';
}

function renderOperation(method: string, path: string, op: Operation, doc: OpenApiDocument): string[] {
  const lines = [
    `### ${method.toUpperCase()} ${path}`,
    '',
    `${oneLine(op.summary)}${op.operationId ? ` (operationId ${op.operationId})` : ''}. Auth: ${auth(method, path, op)}.`,
  ];
  const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
  if (params.length) {
    lines.push('', 'Parameters:');
    for (const p of params)
      lines.push(
        `- ${p.name} (${p.in}, ${typeOf(p.schema, doc)}${p.required ? ', required' : ''})${p.description ? `: ${oneLine(p.description)}` : ''}`,
      );
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) {
    const bodyFields = fields(body, doc);
    lines.push('', `Body (${typeOf(body, doc)}):`, ...(bodyFields.length ? bodyFields : ['- any JSON object']));
  }
  const responses = Object.entries(op.responses ?? {});
  const success = responses.find(([code]) => code.startsWith('2'));
  if (success) {
    const schema = success[1].content?.['application/json']?.schema;
    const names = Object.keys(resolve(schema, doc)?.properties ?? {});
    lines.push(
      '',
      `Returns ${success[0]}${schema ? ` ${typeOf(schema, doc)}` : ''}${names.length ? `: ${names.join(', ')}` : ''}.`,
    );
  }
  const errors = responses.filter(([code]) => !code.startsWith('2')).map(([code]) => code);
  if (errors.length) lines.push(`Errors: ${errors.join(', ')} as {"error": code, "message": what to fix}.`);
  lines.push('');
  return lines;
}

function renderTool(tool: Tool): string[] {
  const a = tool.annotations ?? {};
  const hints = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'].filter(
    (h) => (a as Record<string, unknown>)[h] === true,
  );
  const lines = [
    `### ${tool.name}`,
    '',
    oneLine(tool.description),
    '',
    `Annotations: ${hints.length ? hints.join(', ') : 'none (mutating, not idempotent)'}.`,
  ];
  const input = tool.inputSchema as Schema;
  const args = fields(input, { info: { title: '', version: '' }, paths: {} });
  lines.push(args.length ? 'Arguments:' : 'Arguments: none.', ...args);
  const output = Object.keys((tool.outputSchema as Schema | undefined)?.properties ?? {});
  if (output.length) lines.push(`Structured result: ${output.join(', ')}.`);
  lines.push('');
  return lines;
}

export function renderLlmsTxt(doc: OpenApiDocument, tools: Tool[]): string {
  const lines = [
    `# notifyd ${doc.info.version}`,
    '',
    '> Agent-first notification service on PostgreSQL: email, SMS, WhatsApp, push, chat and an in-app inbox from one queue, with pacing, retries, suppressions, workflows, outbound webhooks, an operator digest and an MCP server.',
    '',
    'Generated from the OpenAPI document and the MCP tool registry by `npm run llms`; do not edit by hand.',
    '',
    '## Conventions',
    '',
    '- Base URL: the instance (default http://localhost:3400). JSON in and out, snake_case fields.',
    '- Project routes take a project key: `X-Api-Key: sk_…` or `Authorization: Bearer sk_…`. Admin routes (`/v1/admin/*`) take ADMIN_API_KEY; GET admin routes also take READONLY_API_KEY.',
    '- Errors: `{"error": "<code>", "message": "<what is wrong and how to fix it>"}` with the HTTP status; 422 validation errors name each field.',
    '- Sending: POST /v1/send with `channels`, `to` or `subscriber_id`, content, optional `idempotency_key` (use `<event>-<entity id>`), `priority`, `scheduled_at`, `wait` (e.g. `10s`) to get the provider outcome in the same call. Campaigns: POST /v1/batch with up to 10 000 subscribers.',
    '- Do not poll a job faster than every 2 s; use `wait` or outbound webhooks.',
    '- OpenAPI 3 document: GET /docs/json; Swagger UI: /docs.',
    '',
    '## REST API',
    '',
  ];
  for (const [path, methods] of Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b))) {
    for (const method of METHODS) {
      const op = methods[method];
      if (op) lines.push(...renderOperation(method, path, op, doc));
    }
  }
  lines.push(
    '## MCP server',
    '',
    'POST /mcp (Streamable HTTP, stateless, JSON answers) or `notifyd mcp` (stdio). Authorization: Bearer with the admin key (all tools), the read-only key (sees every tool, admin-only ones marked; runs read-only tools) or a project key (project tools, on its own project). Tool failures are results with isError and a sentence saying what to do. Start with `digest`, investigate, fix, prove with `send_test`.',
    '',
  );
  for (const tool of [...tools].sort((a, b) => a.name.localeCompare(b.name))) lines.push(...renderTool(tool));
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The tools table of docs/MCP.md (between its tools-table markers). */
export function renderToolsTable(tools: Tool[]): string {
  const yes = (v: unknown) => (v === true ? 'yes' : '–');
  const rows = [...tools]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => {
      const a = (t.annotations ?? {}) as Record<string, unknown>;
      const args = Object.keys((t.inputSchema as Schema).properties ?? {}).join(', ') || '–';
      return `| \`${t.name}\` | ${t.title ?? ''} | ${yes(a.readOnlyHint)} | ${yes(a.destructiveHint)} | ${yes(a.idempotentHint)} | ${yes(a.openWorldHint)} | ${args} |`;
    });
  return [
    '| Tool | What | readOnly | destructive | idempotent | openWorld | Arguments |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

const START = '<!-- tools-table:start -->';
const END = '<!-- tools-table:end -->';

/** docs/MCP.md with its tools table replaced by a fresh one. */
export function withToolsTable(markdown: string, tools: Tool[]): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/MCP.md lacks the ${START} … ${END} markers`);
  return `${markdown.slice(0, start + START.length)}\n${renderToolsTable(tools)}\n${markdown.slice(end)}`;
}
