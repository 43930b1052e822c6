import { Global, Module } from '@nestjs/common';
import { ChatAccessService } from './chat-access.service.js';
import { ChatBindingsRepository } from './chat-bindings.repository.js';
import { ChatBindingsService } from './chat-bindings.service.js';

/** Chat bindings (admin API, enforced at enqueue and in the worker); global so that both read them. */
@Global()
@Module({
  providers: [ChatBindingsRepository, ChatBindingsService, ChatAccessService],
  exports: [ChatBindingsService, ChatAccessService],
})
export class ChatBindingsModule {}
