import { Global, Module } from '@nestjs/common';
import { SubscribersModule } from '../subscribers/subscribers.module.js';
import { TemplateEngine } from './template-engine.js';
import { TemplateRenderer } from './template-renderer.js';
import { TemplatesRepository } from './templates.repository.js';
import { TemplatesService } from './templates.service.js';

/** Stored templates (Liquid, per channel and locale) and their rendering for the worker. */
@Global()
@Module({
  imports: [SubscribersModule],
  providers: [TemplatesRepository, TemplatesService, TemplateEngine, TemplateRenderer],
  exports: [TemplatesService, TemplateRenderer],
})
export class TemplatesModule {}
