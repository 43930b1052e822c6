import { applyDecorators, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ProjectAuth } from './auth.decorators.js';

/**
 * A controller whose every route is called with a project key (@ProjectAuth), mounted at `path`
 * and listed under `tag` in the OpenAPI document: the three decorators each such controller had.
 */
export const ProjectController = (path: string, tag: string) =>
  applyDecorators(ApiTags(tag), ProjectAuth(), Controller(path));
