#!/usr/bin/env node
/*
 * The import graph between the top-level folders of src/ (issue 21): which folder imports which,
 * the loops between folders, every `{ strict: false }` lookup (a loop dodged at run time), and the
 * longest chain of folder imports starting from main.ts.
 *
 *   node scripts/import-graph.mjs          the report, human-readable
 *   node scripts/import-graph.mjs --json   the same as JSON (test/architecture/import-graph.spec.ts)
 *   … 'a -> b' …                           leave the arrow a -> b out (the spec's allow-list)
 *   … --src DIR                            read DIR instead of src/
 *
 * It reads the source text, no compiler: `import … from '…'`, `export … from '…'`, side-effect
 * `import '…'` and dynamic `import('…')` of relative paths. Type-only imports count: they are
 * still the shape a reader has to hold. Files directly in src/ count as the folder `(root)`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = '(root)';

/** Every .ts file under `dir` (no .d.ts), as paths relative to `src`. */
function sourceFiles(src, dir = src) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(src, path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(relative(src, path));
  }
  return out;
}

/** The top-level folder of src/ that holds `file` (a path relative to src). */
export function folderOf(file) {
  const parts = file.split(sep);
  return parts.length === 1 ? ROOT : parts[0];
}

// Comments are removed first so a commented-out import draws no arrow.
const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
const SPECIFIERS = [
  /\b(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g, // import x from '…', export { x } from '…'
  /\bimport\s*['"]([^'"]+)['"]/g, // import '…'
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g, // import('…')
];

/** The relative specifiers a file imports. */
export function specifiersOf(text) {
  const code = stripComments(text);
  const found = [];
  for (const re of SPECIFIERS) for (const m of code.matchAll(re)) if (m[1].startsWith('.')) found.push(m[1]);
  return found;
}

/** Builds the file-level and folder-level graphs of `src`. */
export function importGraph(src) {
  const files = sourceFiles(src);
  const known = new Set(files);
  const folders = new Map(); // folder -> Map(target folder -> [{ from, to }])
  const strictFalse = [];
  for (const file of files) {
    const text = readFileSync(join(src, file), 'utf8');
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Map());
    for (const spec of specifiersOf(text)) {
      const target = relative(src, resolve(join(src, dirname(file)), spec)).replace(/\.js$/, '.ts');
      const to = known.has(target) ? target : known.has(join(target, 'index.ts')) ? join(target, 'index.ts') : target;
      if (to.startsWith('..')) continue; // outside src/ (package.json and the like)
      const folder = folderOf(to);
      if (folder === from) continue;
      const edges = folders.get(from);
      if (!edges.has(folder)) edges.set(folder, []);
      edges.get(folder).push({ from: file, to });
    }
    const code = stripComments(text);
    for (const m of code.matchAll(/strict\s*:\s*false/g)) {
      const line = code.slice(0, m.index).split('\n').length;
      strictFalse.push(`${file}:${line}`);
    }
  }
  return { folders, strictFalse };
}

/** Strongly connected components with more than one folder (Tarjan): each is a loop. */
export function loops(folders) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of folders.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of folders.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/**
 * The arrows that run back up inside each loop: the folders of a loop are ordered bottom-up by
 * the greedy heuristic of Eades, Lin and Smyth (sinks first, sources last, else the folder with
 * the most imports minus importers goes up), and an arrow pointing up that order closes a loop.
 * Removing these arrows breaks every loop; they are the imports to redirect.
 */
export function backArrows(folders, components) {
  const out = [];
  for (const scc of components) {
    const members = new Set(scc);
    const succ = new Map(
      scc.map((v) => [v, new Set([...(folders.get(v)?.keys() ?? [])].filter((w) => members.has(w)))]),
    );
    const pred = new Map(scc.map((v) => [v, new Set()]));
    for (const [v, ws] of succ) for (const w of ws) pred.get(w).add(v);
    const left = new Set(scc);
    const bottom = [];
    const top = [];
    const remove = (v) => {
      left.delete(v);
      for (const w of succ.get(v)) pred.get(w).delete(v);
      for (const u of pred.get(v)) succ.get(u).delete(v);
    };
    while (left.size) {
      let changed = true;
      while (changed) {
        changed = false;
        for (const v of [...left].sort()) {
          const sink = succ.get(v).size === 0;
          if (!sink && pred.get(v).size > 0) continue;
          if (sink) bottom.push(v);
          else top.unshift(v);
          remove(v);
          changed = true;
        }
      }
      if (!left.size) break;
      const v = [...left]
        .sort()
        .reduce((a, b) => (succ.get(b).size - pred.get(b).size > succ.get(a).size - pred.get(a).size ? b : a));
      top.unshift(v);
      remove(v);
    }
    const rank = new Map([...bottom, ...top].map((v, i) => [v, i])); // 0 = bottom
    for (const from of scc)
      for (const [to, edges] of folders.get(from) ?? [])
        if (members.has(to) && rank.get(to) > rank.get(from))
          out.push({ from, to, files: edges.map((e) => `${e.from} -> ${e.to}`) });
  }
  return out.sort((a, b) => `${a.from} ${a.to}`.localeCompare(`${b.from} ${b.to}`));
}

/** The graph without the given `from -> to` arrows (the spec's allow-list). */
export function without(folders, arrows) {
  const drop = new Set(arrows);
  const out = new Map();
  for (const [from, edges] of folders)
    out.set(from, new Map([...edges].filter(([to]) => !drop.has(`${from} -> ${to}`))));
  return out;
}

/** The longest chain of folder imports from `start` in an acyclic graph, start included. */
export function longestChain(folders, start) {
  const memo = new Map();
  const walk = (v) => {
    if (memo.has(v)) return memo.get(v);
    let best = [v];
    for (const w of folders.get(v)?.keys() ?? []) {
      const tail = walk(w);
      if (tail.length + 1 > best.length) best = [v, ...tail];
    }
    memo.set(v, best);
    return best;
  };
  return walk(start);
}

/** Everything the check reports, as plain data. */
export function report(src, allowed = []) {
  const { folders: all, strictFalse } = importGraph(src);
  const folders = without(all, allowed);
  const components = loops(folders);
  const acyclic = components.length === 0;
  // While loops remain, each counts as one node `a+b+…` (a chain through a loop is not finite).
  const chain = acyclic
    ? longestChain(folders, ROOT)
    : longestChain(condense(folders, components), nameIn(components, ROOT));
  const arrows = [...all.values()].reduce((n, m) => n + m.size, 0);
  return {
    folders: [...folders.keys()].sort(),
    arrows,
    graph: Object.fromEntries([...all].sort().map(([f, m]) => [f, [...m.keys()].sort()])),
    loops: components,
    backArrows: backArrows(folders, components),
    strictFalse,
    longestChain: chain,
  };
}

function nameIn(components, folder) {
  return components.find((scc) => scc.includes(folder))?.join('+') ?? folder;
}

/** The graph with each loop replaced by one node named `a+b+…`: acyclic, so chains are exact. */
function condense(folders, components) {
  const nameOf = new Map();
  for (const scc of components) for (const f of scc) nameOf.set(f, scc.join('+'));
  const name = (f) => nameOf.get(f) ?? f;
  const out = new Map();
  for (const [from, edges] of folders) {
    const a = name(from);
    if (!out.has(a)) out.set(a, new Map());
    for (const to of edges.keys()) if (name(to) !== a) out.get(a).set(name(to), []);
  }
  return out;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const at = process.argv.indexOf('--src'); // another tree (the spec's fixtures)
  const src = at > 0 ? resolve(process.argv[at + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const allowed = process.argv.filter((a) => a.includes(' -> ')); // arrows to leave out
  const r = report(src, allowed);
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
  } else {
    console.log(`folders: ${r.folders.length}, arrows between folders: ${r.arrows}`);
    for (const [from, to] of Object.entries(r.graph)) console.log(`  ${from} -> ${to.join(', ') || '(nothing)'}`);
    console.log(`\nloops: ${r.loops.length}`);
    for (const scc of r.loops) console.log(`  { ${scc.join(', ')} }`);
    console.log(`\narrows running back up a loop: ${r.backArrows.length}`);
    for (const e of r.backArrows) {
      console.log(`  ${e.from} -> ${e.to}`);
      for (const f of e.files) console.log(`      ${f}`);
    }
    console.log(`\nstrict: false lookups: ${r.strictFalse.length}`);
    for (const s of r.strictFalse) console.log(`  ${s}`);
    console.log(`\nlongest chain from main.ts: ${r.longestChain.length} folders`);
    console.log(`  ${r.longestChain.join(' -> ')}`);
  }
}
