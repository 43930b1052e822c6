import { randomFillSync } from 'node:crypto';

/**
 * Ids for the jobs of one insert, made here rather than by the column default.
 *
 * Why: the default (notifyd_uuid_v7(), migration 0069) draws its random bits through
 * pg_strong_random once per row, which measured 2.6 µs of database CPU per row on the bench
 * machine, and 4 µs for the whole id: a third of the insert's cost per job. Node draws the
 * random bits of the whole batch in one call.
 *
 * The layout is UUIDv7 (RFC 9562 §5.7): 48 bits of Unix milliseconds, version 7, then the
 * variant and 74 other bits. Of those, 26 bits (rand_a and the top of rand_b) are a counter
 * (RFC 9562 §6.2, method 1) and the last 48 bits are random for every id. The counter starts
 * at a random value below 2^25 and counts up through the insert; a later insert of this process
 * in the same millisecond continues it, so the ids one process makes only ever increase (unless
 * the clock steps back) and PostgreSQL appends them to jobs_pkey's rightmost leaf in order
 * instead of splitting pages. The clock is this process's: ids sort by the api host's time,
 * which may differ from the database's created_at by the hosts' clock skew.
 *
 * The ids are written as one PostgreSQL array literal (`{id,id,…}`), byte by byte into one
 * buffer: a 5 000-job insert then allocates one string instead of five per id, which mattered
 * because a /v1/batch call's garbage is what its scavenges cost (docs/BENCHMARKS.md).
 */
export function newJobIdsLiteral(
  count: number,
  now: number = Date.now(),
  fillRandom: (buffer: Buffer) => Buffer = pooledRandom,
): string {
  if (count === 0) return '{}';
  if (count > MAX_IDS_PER_CALL)
    throw new RangeError(
      `newJobIdsLiteral: ${count} ids in one call; at most ${MAX_IDS_PER_CALL} keep them increasing`,
    );
  const random = fillRandom(Buffer.allocUnsafe(4 + count * 6));
  let counter =
    now === last.millis && last.counter + count < COUNTER_LIMIT
      ? last.counter + 1
      : random.readUInt32BE(0) >>> (32 - COUNTER_START_BITS);
  // "{" + count × (36 characters + "," or the closing "}").
  const out = Buffer.allocUnsafe(1 + count * 37);
  out[0] = BRACE_OPEN;
  const time = timeHex(now); // "xxxxxxxx-xxxx-" (the 48-bit millisecond, its dashes included)
  for (let i = 0, at = 1; i < count; i++, counter++, at += 37) {
    out.write(time, at, 'latin1');
    // counter bits 25..14 → rand_a (12 bits, after the version 7); bits 13..0 → rand_b's top 14 bits, after the variant 10.
    writeHex(out, at + 14, 0x70 | ((counter >>> 22) & 0x0f));
    writeHex(out, at + 16, (counter >>> 14) & 0xff);
    out[at + 18] = DASH;
    writeHex(out, at + 19, 0x80 | ((counter >>> 8) & 0x3f));
    writeHex(out, at + 21, counter & 0xff);
    out[at + 23] = DASH;
    for (let b = 0; b < 6; b++) writeHex(out, at + 24 + b * 2, random[4 + i * 6 + b]);
    out[at + 36] = i === count - 1 ? BRACE_CLOSE : COMMA;
  }
  last.millis = now;
  last.counter = counter - 1;
  return out.toString('latin1');
}

/**
 * Random bytes for small calls from a pool filled 4 KiB at a time: a single send needs 10 bytes,
 * and one randomFillSync per send cost more than the id it made (issue 19's profile). Larger
 * calls fill their own buffer.
 */
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolUsed = POOL_SIZE;
function pooledRandom(buffer: Buffer): Buffer {
  if (buffer.length > POOL_SIZE / 4) return randomFillSync(buffer);
  if (poolUsed + buffer.length > POOL_SIZE) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  pool.copy(buffer, 0, poolUsed, poolUsed + buffer.length);
  poolUsed += buffer.length;
  return buffer;
}

/** The counter's width is 26 bits; a fresh start is below 2^25, so one call always has 2^25 values of room. */
const COUNTER_LIMIT = 2 ** 26;
const COUNTER_START_BITS = 25;
const MAX_IDS_PER_CALL = 2 ** 25;

/** The millisecond and counter of this process's last id, so that a call in the same millisecond continues above it. */
const last = { millis: -1, counter: 0 };

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const [BRACE_OPEN, BRACE_CLOSE, COMMA, DASH] = Buffer.from('{},-', 'latin1');

function writeHex(out: Buffer, at: number, byte: number): void {
  out[at] = HEX_DIGITS[byte >>> 4];
  out[at + 1] = HEX_DIGITS[byte & 0x0f];
}

function timeHex(now: number): string {
  const hex = now.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-`;
}

/** The same ids as newJobIdsLiteral, as an array (a few rows of a coalesced insert, where each row's id is matched back). */
export function newJobIds(count: number): string[] {
  return count === 0 ? [] : newJobIdsLiteral(count).slice(1, -1).split(',');
}
