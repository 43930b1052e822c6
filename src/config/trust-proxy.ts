import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { succeeds } from './succeeds.js';

/**
 * Which peers may tell notifyd the client's address (X-Forwarded-For), as Fastify's
 * `trustProxy` takes it: `false` (none: request.ip is the socket's peer), a hop count (that
 * many proxies in front of notifyd, e.g. 1 behind one load balancer), or the proxies' addresses
 * and CIDR ranges (proxy-addr also knows `loopback`, `linklocal` and `uniquelocal`).
 */
export type TrustProxy = false | number | string[];

const OFF = new Set(['false', 'off', 'no', '0', 'none']);
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 32;

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  if (!entry.includes('/')) return ipaddr.isValid(entry);
  return succeeds(() => ipaddr.parseCIDR(entry));
}

/** The setting, or a message saying what to write instead. */
export function parseTrustProxy(
  raw: string | undefined,
): { ok: true; value: TrustProxy } | { ok: false; message: string } {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || OFF.has(value)) return { ok: true, value: false };
  if (value === 'true' || value === 'on' || value === 'yes' || value === '*') {
    return {
      ok: false,
      message:
        'would trust the X-Forwarded-For any client writes; give the number of proxies in front of notifyd (e.g. 1) or their addresses (e.g. 10.0.0.0/8,192.168.1.10)',
    };
  }
  if (/^\d{1,3}$/.test(value)) {
    const hops = Number(value);
    return hops <= MAX_HOPS
      ? { ok: true, value: hops }
      : { ok: false, message: `must be a hop count of at most ${MAX_HOPS}, or a list of proxy addresses` };
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !isAddressOrRange(e));
  if (bad !== undefined)
    return {
      ok: false,
      message: `'${bad.slice(0, 60)}' is not an IP address, a CIDR range (10.0.0.0/8) or loopback/linklocal/uniquelocal`,
    };
  return { ok: true, value: entries };
}

/** TRUST_PROXY as a config variable: off when unset. */
export function envTrustProxy() {
  return z
    .string()
    .optional()
    .transform((raw, ctx): TrustProxy => {
      const parsed = parseTrustProxy(raw);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    });
}

/**
 * Fastify's `trustProxy` for the setting. Fastify 5 treats a bare number as "trust nothing"
 * (a hop count cannot tell a proxy from a client that connects directly), so a hop count
 * becomes proxy-addr's function form: the first `hops` addresses from the socket inwards are
 * proxies. That is only sound when clients cannot reach notifyd except through them; the
 * address list has no such condition.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return (_address, hop) => hop < hops;
}
