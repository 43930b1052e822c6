import { boundText, renderTextTable, TEXT_MAX, TEXT_TABLE_MAX_ROWS } from './text-table.js';

describe('text tables for agents', () => {
  it('renders the chosen columns, escapes pipes and newlines, cuts long cells, and counts the rows left out', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      id: `j${i}`,
      error: i === 0 ? 'a | b\nc' : 'x'.repeat(200),
      extra: 'hidden',
    }));
    const text = renderTextTable({ rows, columns: ['id', 'error'] });
    const lines = text.split('\n');
    expect(lines[0]).toBe('| id | error |');
    expect(lines[2]).toBe('| j0 | a \\| b c |');
    expect(lines[3].length).toBeLessThan(110);
    expect(lines[3]).toMatch(/…\s\|$/);
    expect(lines.filter((l) => l.startsWith('| j'))).toHaveLength(TEXT_TABLE_MAX_ROWS);
    expect(lines.at(-1)).toBe('(5 more row(s): every field of every row is in structuredContent)');
    expect(text).not.toContain('hidden');
    expect(renderTextTable({ rows: [{ a: null, b: { c: 1 } }], columns: ['a', 'b'] }).split('\n')[2]).toBe(
      '| — | {"c":1} |',
    );
  });

  it('bounds any text and says where the rest is', () => {
    expect(boundText('short')).toBe('short');
    const cut = boundText('y'.repeat(TEXT_MAX + 10));
    expect(cut.length).toBeLessThan(TEXT_MAX + 100);
    expect(cut).toContain('the whole result is in structuredContent');
  });
});
