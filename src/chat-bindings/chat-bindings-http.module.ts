import { Module } from '@nestjs/common';
import { ChatBindingsController } from './chat-bindings.controller.js';
import { ChatBindingsModule } from './chat-bindings.module.js';
import { ProjectsModule } from '../projects/projects.module.js';

/** ChatBindingsModule's HTTP routes. Only api and all replicas load it (see app-http.module.ts). */
@Module({ imports: [ProjectsModule, ChatBindingsModule], controllers: [ChatBindingsController] })
export class ChatBindingsHttpModule {}
