import { addressRefusal, isIpLiteral, LOOPBACK_FIX, type OutboundPolicy } from './address-policy.js';
import { UnsafeUrlError } from './unsafe-url.error.js';

/**
 * The first half of the SSRF guard: checks a user-supplied URL without any network access and
 * returns it parsed. Refuses other schemes than http(s) (https only when `httpsOnly`), URLs
 * with credentials, and IP-literal hosts that are not public. The WHATWG parser has already
 * turned decimal, octal and hex IPv4 forms (`http://2130706433/`, `http://0x7f.1/`) into dotted
 * quads, so they are judged as the address they are.
 *
 * Host names are not resolved here: that happens at connect time in the guarded lookup
 * (guarded-lookup.ts), which also defeats DNS rebinding. Node skips the lookup for IP literals,
 * which is why they must be judged here.
 */
export function assertPublicHttpUrl(input: string | URL, policy: OutboundPolicy = {}): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new UnsafeUrlError(`'${String(input).slice(0, 200)}' is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UnsafeUrlError(`${url.protocol} URLs are not allowed; use https://`);
  }
  if (url.protocol === 'http:' && policy.httpsOnly) {
    throw new UnsafeUrlError(`plain http:// is not allowed here; use https:// (OUTBOUND_HTTPS_ONLY)`);
  }
  if (url.username || url.password) {
    throw new UnsafeUrlError('URLs with a user name or password are not allowed; pass credentials another way');
  }
  const host = url.hostname;
  if (isIpLiteral(host)) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new UnsafeUrlError(refusal);
  } else if (!policy.allowLoopback && (host === 'localhost' || host.endsWith('.localhost'))) {
    // RFC 6761: *.localhost always means loopback; refuse without asking a resolver.
    throw new UnsafeUrlError(`${host} is a loopback name; only public addresses may be reached. ${LOOPBACK_FIX}`);
  }
  return url;
}
