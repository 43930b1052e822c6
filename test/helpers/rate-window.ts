/**
 * The project rate limit counts fixed one-minute windows aligned to the clock's minutes (every
 * replica counts the same window). A test that spends a budget and then expects a 429 must not
 * straddle a minute boundary: this waits for the next minute when fewer than `secs` seconds are
 * left in the current one. The database runs on this machine, so its clock is this clock.
 */
export async function withinOneWindow(secs = 20): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < secs * 1000) await new Promise((resolve) => setTimeout(resolve, left + 250));
}
