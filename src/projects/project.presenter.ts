import type { ProjectDto } from './dto/project.dto.js';
import type { ProjectRow } from './project.types.js';

/** The API shape of a project (snake_case, keys shown only as hints). */
export function presentProject(p: ProjectRow): ProjectDto {
  return {
    id: p.id,
    name: p.name,
    channels: p.channels,
    rate_limit_per_min: p.rateLimitPerMin,
    settings: p.settings,
    from_email: p.fromEmail,
    from_name: p.fromName,
    api_key_hint: p.apiKeyHint,
    secondary_api_key_hint: p.secondaryApiKeyHint,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
