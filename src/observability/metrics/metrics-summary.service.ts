import { Injectable } from '@nestjs/common';
import { Db } from '../../database/db.js';
import type { MetricsSummaryDto } from './dto/metrics-summary.dto.js';
import * as sql from './sql/metrics.sql.js';

/** notifyd 0.x's JSON metrics (GET /v1/metrics): one statement, read when an operator asks. */
@Injectable()
export class MetricsSummaryService {
  constructor(private readonly db: Db) {}

  async summary(): Promise<MetricsSummaryDto> {
    const row = (await this.db.one<Omit<MetricsSummaryDto, 'uptime_seconds'>>(sql.SUMMARY))!;
    return { ...row, uptime_seconds: Math.round(process.uptime()) };
  }
}
