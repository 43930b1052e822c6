/**
 * Reads what the documentation promises, for test/docs-promises.e2e-spec.ts: the routes it
 * names (`GET /v1/...`, with the query parameters and the answer's fields it lists), the MCP
 * tools it names, and the variables of the README's configuration table. Plain text parsing,
 * after the conventions the docs follow; each finding keeps its file and line.
 */

export interface Where {
  file: string;
  line: number;
}

export interface RouteMention extends Where {
  method: string;
  /** The path as written, without query or optional parts: `/v1/jobs/:id`. */
  path: string;
  /** Query parameters named after `?` (`?limit=&cursor=` → limit, cursor). */
  query: string[];
  /** Top-level fields of a body written `{a, b}` right after the route. */
  body: string[];
  /** Top-level fields of an answer written `→ {a, b: …}` right after the route (or its body). */
  fields: string[];
}

const METHOD = '(?:GET|POST|PUT|PATCH|DELETE)';
/** `GET /v1/x`, and method lists that share a path: `GET / PUT / DELETE /v1/send-window`, `GET/DELETE /mcp`. */
const ROUTE = new RegExp(`\\b(${METHOD}(?:\\s*/\\s*${METHOD})*)\\s+(/[^\\s)'",;]*)`, 'g');
/** First path segments of notifyd's own routes; other paths in the docs are providers' APIs or relative. */
const OWN_PREFIXES = new Set(['v1', 'mcp', 'u', 't', 'webhooks', 'inbox', 'docs']);

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The top-level keys of `{a, b: [..], c}` starting at `text[open]`, and where it closes. */
function topLevelKeys(text: string, open: number): string[] {
  let depth = 0;
  let part = '';
  const parts: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[' || c === '(') depth++;
    if (c === '}' || c === ']' || c === ')') depth--;
    if (depth === 0) break;
    if (depth === 1 && c === ',') {
      parts.push(part);
      part = '';
    } else if (i > open) part += c;
  }
  parts.push(part);
  return parts.map((p) => /^\s*([a-z_][a-z0-9_]*)/.exec(p)?.[1]).filter((k): k is string => k !== undefined);
}

export function routeMentions(file: string, markdown: string): RouteMention[] {
  // Backticks only delimit code here: `GET`/`DELETE /mcp` is GET/DELETE /mcp.
  const text = markdown.replace(/`/g, '');
  const found: RouteMention[] = [];
  for (const m of text.matchAll(ROUTE)) {
    // Trailing punctuation and Markdown emphasis (`**POST /v1/batch**`) are not part of the path.
    const raw = m[2].replace(/[.:*]+$/, '');
    const [pathPart, queryPart = ''] = raw.replace(/[[\]]/g, '').split('?');
    const path = pathPart.replace(/\([^)]*\)/g, '').replace(/\/+$/, '') || '/';
    if (!OWN_PREFIXES.has(path.split('/')[1])) continue;
    const query = queryPart
      .split('&')
      .map((p) => p.split('=')[0])
      .filter((p) => /^[a-z_]+$/.test(p));
    const after = text.slice(m.index + m[0].length);
    const brace = /^\s*\{/.exec(after);
    const body = brace ? topLevelKeys(after, brace[0].length - 1) : [];
    const arrow = /^\s*(?:\([^)]*\)\s*)?(?:\{[^}\n]*\}\s*)?(?:\([^)]*\)\s*)?→\s*\{/.exec(after);
    const fields = arrow ? topLevelKeys(after, arrow[0].length - 1) : [];
    const line = lineOf(text, m.index);
    for (const method of m[1].split('/').map((s) => s.trim()))
      found.push({ file, line, method, path, query, body, fields });
  }
  return found;
}

/** Tool names in docs/MCP.md's tools table (rows between the tools-table markers). */
export function toolsTable(markdown: string): string[] {
  const start = markdown.indexOf('<!-- tools-table:start -->');
  const end = markdown.indexOf('<!-- tools-table:end -->');
  if (start < 0 || end < start) throw new Error('docs/MCP.md lacks its tools-table markers');
  return [...markdown.slice(start, end).matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
}

/** Tools named in prose: "MCP `list_jobs`", "tool `template_metrics`", "MCP: `a`, `b` and `c`". */
export function toolMentions(file: string, markdown: string): (Where & { tool: string })[] {
  const found: (Where & { tool: string })[] = [];
  for (const m of markdown.matchAll(
    /\b(?:MCP|tools?)\b:?\s+((?:`[a-z][a-z0-9_]*`(?:\s*\([^)]*\))?(?:\s*(?:,|and|or)\s*)?)+)/g,
  )) {
    for (const name of m[1].matchAll(/`([a-z][a-z0-9_]*)`/g))
      found.push({ file, line: lineOf(markdown, m.index), tool: name[1] });
  }
  return found;
}

/** Tools llms.txt describes: `### name` headings of its "## MCP server" section. */
export function llmsTools(text: string): string[] {
  const section = text.slice(text.indexOf('\n## MCP server'));
  return [...section.matchAll(/^### ([a-z_]+)$/gm)].map((m) => m[1]);
}

export interface ConfigTable {
  /** Variables named anywhere in the table, with the row's line. */
  variables: Map<string, number>;
  /** `<CHANNEL>_FAILOVER_COOLDOWN_SECS`-style rows: the suffix, standing for one variable per channel. */
  patterns: { suffix: string; line: number }[];
}

/** The README's configuration table (`| Variable | Default | Meaning |`). */
export function configTable(readme: string): ConfigTable {
  const lines = readme.split('\n');
  const head = lines.findIndex((l) => /^\| Variable \| Default \| Meaning \|/.test(l));
  if (head < 0) throw new Error('README.md has no configuration table');
  const variables = new Map<string, number>();
  const patterns: ConfigTable['patterns'] = [];
  for (let i = head + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    // Names with an underscore anywhere in the row, and one-word names in code (`PORT`).
    const names = [...lines[i].matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)].map((m) => m[0]);
    names.push(...[...lines[i].matchAll(/`([A-Z][A-Z0-9]+)(?:=[^`]*)?`/g)].map((m) => m[1]));
    for (const name of names) if (!variables.has(name)) variables.set(name, i + 1);
    for (const m of lines[i].matchAll(/<[A-Z]+>(_[A-Z0-9_]+)\b/g)) patterns.push({ suffix: m[1], line: i + 1 });
  }
  return { variables, patterns };
}
