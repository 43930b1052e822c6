import ipaddr from 'ipaddr.js';

/** What outbound requests to user-supplied URLs may reach. */
export interface OutboundPolicy {
  /**
   * Allow 127.0.0.0/8 and ::1 (tests and local development only; refused in production).
   * Private, link-local, carrier-grade NAT, multicast and reserved ranges are never allowed.
   */
  allowLoopback?: boolean;
  /** Refuse plain http:// (production). */
  httpsOnly?: boolean;
}

const PUBLIC_ONLY = 'only public addresses may be reached';
/** The fix a developer needs when the receiver runs on their own machine (issue 26: the 422 did not say). */
export const LOOPBACK_FIX =
  'For a receiver on this machine in development, set OUTBOUND_ALLOW_LOOPBACK=true (refused when NODE_ENV=production) or start with `npm run dev`';

/**
 * Why an address may not be reached, or undefined when it may. Only globally routable unicast
 * addresses pass (ipaddr.js range 'unicast'). IPv6 forms that carry an IPv4 address are judged
 * by where the packet goes (embeddedIpv4Refusal); the others ipaddr.js classifies.
 */
export function addressRefusal(address: string, policy: OutboundPolicy = {}): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const ip = parseAddress(bare);
  if (!ip) return `'${address}' is not an IP address`;
  if (ip.kind() === 'ipv6') {
    const embedded = embeddedIpv4Refusal(ip as ipaddr.IPv6, policy);
    if (embedded !== null) return embedded;
  }
  return rangeRefusal(ip, policy);
}

/** ipaddr.js's verdict: unicast passes, loopback only when allowed. */
function rangeRefusal(ip: ipaddr.IPv4 | ipaddr.IPv6, policy: OutboundPolicy): string | undefined {
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  if (range === 'loopback') return `${ip.toString()} is a loopback address; ${PUBLIC_ONLY}. ${LOOPBACK_FIX}`;
  return `${ip.toString()} is a ${range} address; ${PUBLIC_ONLY}`;
}

/**
 * The IPv6 forms that carry an IPv4 address, each decided (null: not such a form):
 * - IPv4-mapped ::ffff:0:0/96: the socket connects to the IPv4 address; judged as it.
 * - IPv4-compatible ::/96 (other than :: and ::1): deprecated by RFC 4291, refused.
 * - NAT64 64:ff9b::/96 (RFC 6052): a translator sends to the embedded address, which must be
 *   public (RFC 6052 forbids non-global ones there; loopback is the translator's own, never
 *   allowed). IPv6-only networks with DNS64 reach IPv4-only hosts this way.
 * - Local-use NAT64 64:ff9b:1::/48 (RFC 8215): translates into the operator's own networks, refused.
 * - ISATAP interface identifiers (…:0:5efe:a.b.c.d, …:200:5efe:a.b.c.d) under any prefix: the
 *   router tunnels to the embedded address, which must be public.
 * 6to4 (2002::/16), Teredo (2001::/32), IPv4-translated (::ffff:0:0:0/96) and deprecated
 * site-local (fec0::/10) are refused by their ipaddr.js range, not being unicast.
 */
function embeddedIpv4Refusal(ip: ipaddr.IPv6, policy: OutboundPolicy): string | null | undefined {
  const w = ip.parts;
  const v4 = () => ipaddr.IPv4.parse(`${w[6] >> 8}.${w[6] & 0xff}.${w[7] >> 8}.${w[7] & 0xff}`);
  if (ip.isIPv4MappedAddress()) return rangeRefusal(ip.toIPv4Address(), policy);
  if (w.slice(0, 6).every((x) => x === 0) && !(w[6] === 0 && w[7] <= 1)) {
    return `${ip.toString()} is an IPv4-compatible address (::/96, deprecated); ${PUBLIC_ONLY}`;
  }
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1)
    return `${ip.toString()} is a local-use NAT64 address (64:ff9b:1::/48); ${PUBLIC_ONLY}`;
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0))
    return publicOnly(`${ip.toString()} is a NAT64 (rfc6052) address`, v4());
  if ((w[4] & 0xfcff) === 0 && w[5] === 0x5efe && ip.range() === 'unicast')
    return publicOnly(`${ip.toString()} is an ISATAP address`, v4());
  return null;
}

/** Refusal unless the embedded address is public unicast (loopback included: it is not ours there). */
function publicOnly(what: string, embedded: ipaddr.IPv4): string | undefined {
  const range = embedded.range();
  return range === 'unicast' ? undefined : `${what}: ${embedded.toString()} is a ${range} address; ${PUBLIC_ONLY}`;
}

/**
 * The address, or undefined. IPv6 text goes through the WHATWG URL parser first, which writes
 * every form in hex (`::127.0.0.1` → `::7f00:1`): ipaddr.js reads a dotted quad after `::` as an
 * IPv4-mapped address, and glibc prints IPv4-compatible answers that way.
 */
function parseAddress(bare: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!bare.includes(':')) return ipaddr.IPv4.isValid(bare) ? ipaddr.IPv4.parse(bare) : undefined;
  let canonical: string;
  try {
    canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  return ipaddr.IPv6.isValid(canonical) ? ipaddr.IPv6.parse(canonical) : undefined;
}

/** True when `host` (a URL hostname, possibly bracketed IPv6) is an IP literal. */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare));
}
