import type { OutboundPolicy } from './address-policy.js';
import { assertPublicHttpUrl } from './public-url.js';
import { UnsafeUrlError } from './unsafe-url.error.js';

/** True when `host` is in the allow-list: exact names, `*.suffix` for sub-domains, `*` for any. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((entry) => {
    if (entry === '*') return true;
    if (entry.startsWith('*.')) return name.endsWith(entry.slice(1)) && name.length > entry.length - 1;
    return name === entry;
  });
}

/**
 * A web push subscription endpoint comes from a browser, i.e. from a user: it must pass the
 * SSRF guard's literal checks (scheme, credentials, non-public IP literals) and name one of
 * the push services in WEB_PUSH_ENDPOINT_HOSTS. Checked when the subscription is registered
 * and again before each send (the allow-list may have changed since). The host's addresses are
 * checked once more at connect time by the guarded agent.
 */
export function assertWebPushEndpoint(endpoint: string, policy: OutboundPolicy, allowedHosts: readonly string[]): URL {
  // Push services speak HTTPS only (RFC 8030 §8), so plain http is refused whatever the policy.
  const url = assertPublicHttpUrl(endpoint, { ...policy, httpsOnly: true });
  if (!hostAllowed(url.hostname, allowedHosts)) {
    throw new UnsafeUrlError(
      `${url.hostname} is not a known push service (WEB_PUSH_ENDPOINT_HOSTS allows ${allowedHosts.join(', ')})`,
    );
  }
  return url;
}
