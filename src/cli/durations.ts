import { UsageError } from './args.js';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m`, `24h`, `7d` or an RFC 3339 time → the RFC 3339 time it designates (now minus the span). */
export function sinceToTime(value: string, now = Date.now()): string {
  const span = /^(\d{1,6})([smhd])$/.exec(value.trim());
  if (span) return new Date(now - Number(span[1]) * UNIT_MS[span[2]]).toISOString();
  if (!Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value)) return new Date(value).toISOString();
  throw new UsageError(
    `--since must be a span such as 30m, 24h or 7d, or an RFC 3339 time such as 2026-11-29T00:00:00Z (got '${value}').`,
  );
}

/** `90s`, `10m`, `2h`, `1d` → seconds. */
export function durationSeconds(value: string, flag: string): number {
  const span = /^(\d{1,6})([smhd])$/.exec(value.trim());
  if (!span) throw new UsageError(`${flag} must be a duration such as 90s, 10m, 2h or 1d (got '${value}').`);
  return (Number(span[1]) * UNIT_MS[span[2]]) / 1000;
}
