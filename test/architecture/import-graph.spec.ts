import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The shape of src/ between its top-level folders (issue 21), read from the imports by
 * scripts/import-graph.mjs: no loop between folders, no `moduleRef.get(…, { strict: false })`
 * (a loop dodged at run time), and a chain of folder imports from main.ts of at most 14 folders.
 * No database: it reads the source text.
 */

/**
 * Folder imports that still close a loop, each to be removed (delete the entry with the import).
 * The spec fails if an entry is no longer needed, so the list only shrinks.
 */
const ALLOWED_BACK_ARROWS: string[] = [];

/** `file:line` of `strict: false` lookups still in src/; same rule as above. */
const ALLOWED_STRICT_FALSE: string[] = [];

/** The goal of issue 21, reached: no chain of folder imports from main.ts longer than this. */
const MAX_CHAIN = 14;

interface Report {
  graph: Record<string, string[]>;
  loops: string[][];
  backArrows: { from: string; to: string; files: string[] }[];
  strictFalse: string[];
  longestChain: string[];
}

const script = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'import-graph.mjs');
const run = (allowed: string[]): Report =>
  JSON.parse(execFileSync(process.execPath, [script, '--json', ...allowed], { encoding: 'utf8' })) as Report;

describe('the import graph between the folders of src/', () => {
  const report = run(ALLOWED_BACK_ARROWS);

  it('has no loop between folders (outside the allow-list)', () => {
    expect(report.loops).toEqual([]);
  });

  it('allows only back arrows that still exist', () => {
    for (const arrow of ALLOWED_BACK_ARROWS) {
      const [from, to] = arrow.split(' -> ');
      expect({ arrow, exists: report.graph[from]?.includes(to) ?? false }).toEqual({ arrow, exists: true });
    }
  });

  it('has no moduleRef lookup with { strict: false }', () => {
    expect(report.strictFalse.sort()).toEqual([...ALLOWED_STRICT_FALSE].sort());
  });

  it(`chains at most ${MAX_CHAIN} folders from main.ts`, () => {
    expect(report.longestChain[0]).toBe('(root)');
    expect(report.longestChain.length).toBeLessThanOrEqual(MAX_CHAIN);
  });

  it('finds a loop, a strict: false lookup and the chain in a tree made to have them', () => {
    // a -> b -> c -> a is a loop; the root imports a; `import type` and `export from` count.
    const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write('main.ts', "import { A } from './a/a.js';\n");
    write('a/a.ts', "import type { B } from '../b/b.js';\nexport const A = 1;\n");
    write('b/b.ts', "export { C } from '../c/c.js';\nexport type B = 1;\n");
    write('c/c.ts', "// import { A } from '../a/a.js';\nexport const C = () => import('../a/a.js');\n");
    write('d/d.ts', 'const x = moduleRef.get(Y, { strict: false });\n');
    try {
      const fixture = JSON.parse(
        execFileSync(process.execPath, [script, '--json', '--src', dir], { encoding: 'utf8' }),
      ) as Report;
      expect(fixture.loops).toEqual([['a', 'b', 'c']]);
      expect(fixture.backArrows).toHaveLength(1);
      expect(fixture.strictFalse).toEqual(['d/d.ts:1']);
      expect(fixture.longestChain).toEqual(['(root)', 'a+b+c']);
      const broken = JSON.parse(
        execFileSync(process.execPath, [script, '--json', '--src', dir, 'c -> a'], { encoding: 'utf8' }),
      ) as Report;
      expect(broken.loops).toEqual([]);
      expect(broken.longestChain).toEqual(['(root)', 'a', 'b', 'c']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
