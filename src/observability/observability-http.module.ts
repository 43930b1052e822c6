import { Module } from '@nestjs/common';
import { MetricsController } from './metrics/metrics.controller.js';
import { TemplateMetricsController } from './template-metrics/template-metrics.controller.js';
import { ObservabilityModule } from './observability.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** ObservabilityModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [ProjectsModule, ObservabilityModule], controllers: [MetricsController, TemplateMetricsController] })
export class ObservabilityHttpModule {}
