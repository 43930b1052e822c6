import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizeOperator } from '../projects/auth/admin-auth.guard.js';
import { presentedKey } from '../projects/auth/api-keys.js';
import { ApiError } from '../common/errors/api-error.js';
import type { AppConfig } from '../config/app-config.js';
import type { MetricsService } from '../observability/metrics/metrics.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { HealthService } from './health.service.js';

const NOT_FOUND = {
  error: 'not_found',
  message:
    'This instance runs NOTIFYD_ROLE=worker and serves only /v1/health and /v1/metrics/prometheus; send API calls to an api instance.',
};

/**
 * The HTTP surface of a worker replica: GET /v1/health and /v1/health/ready, the same answers
 * as an api replica's (HealthService), for the Docker HEALTHCHECK and orchestrator probes, and
 * GET /v1/metrics/prometheus (admin or read-only key, as on an api replica): the outcome,
 * provider-error and latency counters are per process, and only workers send, so Prometheus
 * must scrape the workers. Every other path is a 404 naming the role. A worker does not load Fastify, the controllers
 * or the OpenAPI layer (about 40 MB resident), so this is plain node:http.
 */
export class WorkerHealthServer {
  private readonly server: Server;

  constructor(
    private readonly health: HealthService,
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
    private readonly projects: Pick<ProjectsService, 'authenticate'>,
  ) {
    this.server = createServer((req, res) => void this.handle(req, res));
    // Probes are short requests: no reason to keep idle sockets that would delay close().
    this.server.keepAliveTimeout = 1_000;
  }

  /** Resolves with the bound port (PORT may be 0 in tests and benches). */
  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    try {
      if (isRead && path === '/v1/health') return send(res, 200, await this.health.health());
      if (isRead && path === '/v1/health/ready') {
        const readiness = await this.health.readiness();
        return send(res, readiness.ready ? 200 : 503, readiness);
      }
      if (isRead && path === '/v1/metrics/prometheus') return await this.prometheus(req, res);
      send(res, 404, NOT_FOUND);
    } catch {
      send(res, 500, { error: 'internal_error', message: 'The health check failed unexpectedly; see the worker log.' });
    }
  }

  /**
   * The same answers as MetricsController behind @AdminController(…, { readers: true }): the decision is
   * authorizeOperator, the api guard's own, so a project key is 403 here too, not 401.
   */
  private async prometheus(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await authorizeOperator(this.config, presentedKey(req.headers), this.projects, true);
    } catch (err) {
      if (err instanceof ApiError) return send(res, err.getStatus(), err.getResponse());
      throw err;
    }
    const text = await this.metrics.render();
    res.writeHead(200, {
      'content-type': this.metrics.contentType,
      'cache-control': 'no-store',
      'content-length': Buffer.byteLength(text),
    });
    res.end(req.method === 'HEAD' ? undefined : text);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}
