import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from './config/app-config.js';
import { HttpExceptionFilter } from './common/errors/http-exception.filter.js';
import { createValidationPipe } from './common/validation/validation.pipe.js';
import { VERSION } from './common/version.js';

/** A caller-supplied request id is echoed if it is short and plain; otherwise we make one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && REQUEST_ID.test(value) ? value : randomUUID();
}

/** The Fastify options every notifyd app uses (main.ts and tests). */
export function fastifyOptions(config: AppConfig) {
  return {
    bodyLimit: config.server.bodyLimitBytes,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => requestIdFrom(req.headers['x-request-id']),
    trustProxy: true,
  };
}

/** Builds the OpenAPI document from the controllers and DTOs. */
export function buildOpenApiDocument(app: NestFastifyApplication) {
  const config = new DocumentBuilder()
    .setTitle('notifyd')
    .setDescription(
      'Agent-first notification service on PostgreSQL. Project routes take a project key (`X-Api-Key: sk_…` or ' +
        '`Authorization: Bearer sk_…`); admin routes take ADMIN_API_KEY (or READONLY_API_KEY for reads). ' +
        'Errors are `{"error": code, "message": what to fix}`.',
    )
    .setVersion(VERSION)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'Project key (sk_…) or operator key' }, 'apiKey')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The same keys as a bearer token' }, 'bearer')
    .build();
  return SwaggerModule.createDocument(app, config, {
    // Handlers are named for their operation (sendNotification, getJob…); ids stay stable.
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
  });
}

/** Pipes, filters, request ids, role gate and API docs: shared by main.ts and the e2e tests. */
export function setupApp(app: NestFastifyApplication, config: AppConfig): void {
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  if (config.server.role === 'worker') {
    // A worker replica serves only its health checks; API calls belong to api replicas.
    fastify.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/v1/health')) {
        await reply.status(404).send({
          error: 'not_found',
          message: 'This instance runs NOTIFYD_ROLE=worker and serves only /v1/health; send API calls to an api instance.',
        });
      }
    });
  }
  app.enableCors({ origin: config.server.corsOrigins.length ? config.server.corsOrigins : true });
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json', customSiteTitle: 'notifyd API' });
}
