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

/**
 * Why an address may not be reached, or undefined when it may. Only globally routable unicast
 * addresses pass (ipaddr.js range 'unicast'); IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as
 * the IPv4 address it carries, so it cannot smuggle a private target through.
 */
export function addressRefusal(address: string, policy: OutboundPolicy = {}): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return `'${address}' is not an IP address`;
  const ip = ipaddr.process(bare);
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `${ip.toString()} is a ${range} address; only public addresses may be reached`;
}

/** True when `host` (a URL hostname, possibly bracketed IPv6) is an IP literal. */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare));
}
