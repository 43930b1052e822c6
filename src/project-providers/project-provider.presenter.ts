import type { ProjectProviderDto } from './dto/project-provider.dto.js';
import type { ProjectProviderView } from './project-providers.service.js';

/** A project's provider as the REST API and the MCP tools show it (secrets already masked by the service). */
export function presentProjectProvider(v: ProjectProviderView): ProjectProviderDto {
  return {
    project_id: v.projectId,
    channel: v.channel,
    provider: v.provider,
    settings: v.settings,
    key_id: v.keyId,
    created_at: new Date(v.createdAt).toISOString(),
    updated_at: new Date(v.updatedAt).toISOString(),
  };
}
