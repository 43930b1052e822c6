import { Module } from '@nestjs/common';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { TemplateRenderPool } from './render/template-render-pool.js';
import { TemplateEngine } from './template-engine.js';
import { TemplateRenderer } from './template-renderer.js';
import { TemplatesRepository } from './templates.repository.js';
import { TemplatesService } from './templates.service.js';

/** Stored templates (Liquid, per channel and locale) and their rendering, in worker threads, for previews and the worker. */
@Module({
  imports: [SubscribersModule],
  providers: [TemplatesRepository, TemplatesService, TemplateRenderPool, TemplateEngine, TemplateRenderer],
  exports: [TemplatesService, TemplateRenderer],
})
export class TemplatesModule {}
