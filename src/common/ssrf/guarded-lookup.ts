import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { addressRefusal, type OutboundPolicy } from './address-policy.js';
import { UnsafeUrlError } from './unsafe-url.error.js';

/** Resolves a host name to every address it has (injectable for tests: no real DNS there). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The second half of the SSRF guard: a `dns.lookup`-compatible function for `net.connect`
 * (undici's `connect.lookup`, an https.Agent's `lookup`). It resolves the name once, refuses
 * the connection if ANY address is not public, and hands the socket exactly the addresses it
 * checked, so a rebinding resolver cannot answer differently between check and connect.
 */
export function guardedLookup(policy: OutboundPolicy, resolver: Resolver = systemResolver) {
  return (hostname: string, options: LookupOptions | number | LookupCallback, maybeCallback?: LookupCallback): void => {
    const callback = (typeof options === 'function' ? options : maybeCallback) as LookupCallback;
    const opts: LookupOptions = typeof options === 'object' && options !== null ? options : {};
    resolver(hostname).then(
      (addresses) => {
        const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : opts.family;
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        if (usable.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        for (const { address } of usable) {
          const refusal = addressRefusal(address, policy);
          if (refusal) {
            callback(new UnsafeUrlError(`${hostname} resolves to a non-public address: ${refusal}`), '', 0);
            return;
          }
        }
        if (opts.all) callback(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/**
 * Registration-time check of a URL's host name: resolves it and refuses it when any address is
 * not public, so that the caller gets a clear error at once. This is a courtesy, not the
 * defence: the name is resolved again and checked at connect time (a rebinding resolver may
 * answer differently by then).
 */
export async function assertResolvesPublic(
  url: URL,
  policy: OutboundPolicy,
  resolver: Resolver = systemResolver,
): Promise<void> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: LookupAddress[];
  try {
    addresses = await resolver(host);
  } catch (err) {
    throw new UnsafeUrlError(
      `${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw new UnsafeUrlError(`${host} resolves to a non-public address: ${refusal}`);
  }
}
