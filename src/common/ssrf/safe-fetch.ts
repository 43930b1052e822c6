import { Agent as HttpsAgent } from 'node:https';
import type { Agent, RequestInit, Response } from 'undici';
import { undici } from '../undici.js';
import type { OutboundPolicy } from './address-policy.js';
import { guardedLookup, type Resolver, systemResolver } from './guarded-lookup.js';
import { assertPublicHttpUrl } from './public-url.js';
import { UnsafeUrlError } from './unsafe-url.error.js';

export interface SafeFetchOptions extends OutboundPolicy {
  /** Abort after this many milliseconds (default 20 s). */
  timeoutMs?: number;
  /** Extra CA certificates to trust (tests with a self-signed fake). */
  ca?: string | Buffer;
  /** Host name resolution (tests inject one; default: the system resolver). */
  resolver?: Resolver;
}

const agents = new Map<string, Agent>();

/** One pooled dispatcher per policy, so connections to a webhook host are reused. */
async function dispatcher(options: SafeFetchOptions): Promise<Agent> {
  const { Agent } = await undici();
  const custom = options.resolver && options.resolver !== systemResolver;
  const key = `${options.allowLoopback ? 1 : 0}|${options.ca ? String(options.ca).slice(-64) : ''}`;
  const cached = custom ? undefined : agents.get(key);
  if (cached) return cached;
  const agent = new Agent({
    connect: {
      lookup: guardedLookup(options, options.resolver ?? systemResolver),
      ...(options.ca ? { ca: options.ca } : {}),
    },
    connections: 32,
  });
  if (!custom) agents.set(key, agent);
  return agent;
}

/**
 * fetch() for URLs a user supplied (chat webhooks, push endpoints…): the URL is checked
 * before anything is sent (scheme, credentials, IP literals), every address a host name
 * resolves to is checked at connect time, and redirects are never followed — a 3xx comes back
 * as the response, which callers treat as a refusal. Throws UnsafeUrlError before any
 * connection is opened when the target is not allowed.
 */
export async function safeFetch(
  url: string | URL,
  init: Omit<RequestInit, 'redirect' | 'dispatcher'> = {},
  options: SafeFetchOptions = {},
): Promise<Response> {
  const target = assertPublicHttpUrl(url, options);
  try {
    const { fetch } = await undici();
    return await fetch(target, {
      ...init,
      redirect: 'manual',
      dispatcher: await dispatcher(options),
      signal: init.signal ?? AbortSignal.timeout(options.timeoutMs ?? 20_000),
    });
  } catch (err) {
    // fetch wraps connect errors in "fetch failed"; a refusal by the connect-time check is
    // surfaced as itself so that callers can tell it from a network failure.
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof UnsafeUrlError) throw cause;
    throw err;
  }
}

/**
 * A node:https Agent with the connect-time check, for libraries that take an agent instead of
 * a fetch (web-push). Check the URL with assertPublicHttpUrl first: Node does not call
 * `lookup` for IP-literal hosts.
 */
export function guardedHttpsAgent(options: Omit<SafeFetchOptions, 'timeoutMs'> = {}): HttpsAgent {
  return new HttpsAgent({
    keepAlive: true,
    lookup: guardedLookup(options, options.resolver ?? systemResolver) as never,
    ...(options.ca ? { ca: options.ca } : {}),
  });
}
