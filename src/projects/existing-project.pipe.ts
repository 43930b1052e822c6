import { Injectable, type PipeTransform } from '@nestjs/common';
import { ProjectsService } from './projects.service.js';

/**
 * `@Param('id', ExistingProjectPipe) projectId: string` on an operator route below
 * `/v1/admin/projects/:id/…`: the id, once the project is known to exist (else the 404 of
 * ProjectsService.get). A route that needs the project's row reads it from the service instead.
 * The value stays a string, so the OpenAPI path parameter is unchanged. An invalid body or query
 * is still refused first: its 422 settles before the lookup does (test/admin-project-views).
 */
@Injectable()
export class ExistingProjectPipe implements PipeTransform<string, Promise<string>> {
  constructor(private readonly projects: ProjectsService) {}

  async transform(id: string): Promise<string> {
    await this.projects.get(id);
    return id;
  }
}
