import { Controller, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { HealthDto, ReadinessDto } from './dto/health.dto.js';
import { HealthService } from './health.service.js';
import { Operation } from '../common/http/operation.decorator.js';

@ApiTags('Health')
@Controller('v1/health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Operation('GET', [], {
    summary:
      'Liveness (always 200): the process answers; reports the database, the worker heartbeats (degraded when none is alive while jobs are due), version and uptime',
  })
  @ApiResponse({ status: 200, type: HealthDto })
  getHealth(): Promise<HealthDto> {
    return this.health.health();
  }

  @Operation('GET /ready', [], 'Readiness: 503 while the database is unreachable or migrations are pending')
  @ApiResponse({ status: 200, type: ReadinessDto, description: 'Ready to serve' })
  @ApiResponse({
    status: 503,
    type: ReadinessDto,
    description: 'Not ready',
    example: {
      ready: false,
      db: 'ok',
      pending_migrations: ['InitialSchema1764460800001'],
      reason: 'Migrations pending: run `notifyd migrate`.',
    },
  })
  async getReadiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessDto> {
    const readiness = await this.health.readiness();
    if (!readiness.ready) void reply.status(503);
    return readiness;
  }
}
