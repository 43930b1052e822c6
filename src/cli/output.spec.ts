import { sinceToTime, durationSeconds } from './durations.js';
import { record, table } from './output.js';
import { Progress } from './progress.js';

describe('CLI output', () => {
  it('pads table columns to the widest cell and shows empty cells as -', () => {
    expect(
      table(
        ['ID', 'STATUS'],
        [
          ['a', 'sent'],
          ['long-id', null],
        ],
      ),
    ).toBe('ID       STATUS\na        sent\nlong-id  -\n');
  });

  it('cuts long cells and flattens newlines', () => {
    const [, row] = table(['X'], [['line one\nline two ' + 'x'.repeat(100)]]).split('\n');
    expect(row).toHaveLength(60);
    expect(row.endsWith('…')).toBe(true);
    expect(row).not.toContain('\n');
  });

  it('prints a record as aligned key/value lines', () => {
    expect(record({ id: 'j1', attempts: 2, error: null })).toBe('id        j1\nattempts  2\nerror     -\n');
  });

  it('draws progress only on a terminal', () => {
    const writes: string[] = [];
    const fake = { isTTY: false, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream;
    const progress = new Progress('retrying', 10, fake, fake);
    for (let i = 0; i < 10; i++) progress.tick();
    progress.finish();
    expect(writes).toEqual([]);
  });

  it('reads --since spans and times, and refuses anything else', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(sinceToTime('30m', now)).toBe('2026-11-30T11:30:00.000Z');
    expect(sinceToTime('7d', now)).toBe('2026-11-23T12:00:00.000Z');
    expect(sinceToTime('2026-11-29T00:00:00Z', now)).toBe('2026-11-29T00:00:00.000Z');
    expect(() => sinceToTime('yesterday', now)).toThrow(/--since must be a span/);
    expect(durationSeconds('10m', '--for')).toBe(600);
    expect(() => durationSeconds('10', '--for')).toThrow(/--for must be a duration/);
  });
});
