import { applyDecorators, Controller, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Operation, type OperationDocs, type Route } from '../../common/http/operation.decorator.js';
import { RawBody, rawBodyOf, type RawWebhookBody } from './raw-body.hook.js';

/** A controller of provider callbacks: mounted at /webhooks, listed under "Provider webhooks". */
export const ProviderWebhookController = () => applyDecorators(ApiTags('Provider webhooks'), Controller('webhooks'));

/**
 * A callback route (@Operation) whose handler verifies a signature over the raw body (@RawBody).
 * `limitBytes` caps the body below BODY_LIMIT_BYTES: the read stops there with 413.
 */
export const SignedCallback = (route: Route, errors: number[], docs: OperationDocs, limitBytes?: number) =>
  applyDecorators(Operation(route, errors, docs), RawBody(limitBytes));

/** What a signed callback's handler verifies: the body as received, its content type, the headers, the path and query. */
export interface SignedRequest extends RawWebhookBody {
  headers: Record<string, string | string[] | undefined>;
  /** The request's path and query as received (Twilio signs the URL). */
  url: string;
}

/** The handler's SignedRequest: the raw body the @RawBody hook kept, the request's headers and URL. */
export const Signed = createParamDecorator((_: unknown, ctx: ExecutionContext): SignedRequest => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest>();
  return { ...rawBodyOf(request), headers: request.headers, url: request.url };
});
