/**
 * Runs a statement bounded to `batch` rows again and again until one run touches fewer than a
 * full batch (nothing is left), and returns the rows touched in all. For cleanups that must not
 * hold many locks or write a large WAL burst in one statement.
 */
export async function inBatches(batch: number, run: (batch: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const touched = await run(batch);
    total += touched;
    if (touched < batch) return total;
  }
}
