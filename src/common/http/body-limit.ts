import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const BODY_LIMIT_ROUTE = 'notifydBodyLimit';

/** The route config entry that caps a route's body (used by BodyLimit and RawBody). */
export const bodyLimitConfig = (bytes: number) => ({ [BODY_LIMIT_ROUTE]: bytes });

/**
 * Caps one route's body below BODY_LIMIT_BYTES: public routes that anyone can call before any
 * check (a Telegram update, a preference form) read at most what they can use, not 5 MiB.
 */
export const BodyLimit = (bytes: number) => RouteConfig(bodyLimitConfig(bytes));

/** The cap a route was given with BodyLimit or RawBody(limit), if any. */
export function routeBodyLimit(request: FastifyRequest): number | undefined {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  const bytes = config?.[BODY_LIMIT_ROUTE];
  return typeof bytes === 'number' ? bytes : undefined;
}

/**
 * Makes Fastify enforce those caps: its parsers answer a larger body with 413 before the
 * handler runs. Registered before Nest adds its routes (onRoute sees each as it is added).
 */
export function applyRouteBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const bytes = (route.config as Record<string, unknown> | undefined)?.[BODY_LIMIT_ROUTE];
    if (typeof bytes === 'number') route.bodyLimit = bytes;
  });
}
