import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results', 'faults.txt');

/**
 * Each fault test leaves one line saying what it saw (lost, duplicated, recovered…), printed
 * and appended to test-results/faults.txt, so a CI log shows the verdicts without the details.
 */
export function verdict(name: string, facts: Record<string, string | number | boolean>): void {
  const line = `VERDICT ${name}: ${Object.entries(facts)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}\n`;
  process.stdout.write(line);
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, line);
}
