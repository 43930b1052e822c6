import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { AuditLogService } from '../../audit/audit-log.service.js';
import { AuditQueryDto } from '../../audit/dto/audit.dto.js';
import { defineTool, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { isoTime, projectIdArg } from './schemas.js';
import { validateDto } from './validate-dto.js';

const entryView = z.object({
  id: z.string(),
  project_id: z.string().nullable(),
  actor: z.string(),
  action: z.string(),
  resource: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  created_at: z.string(),
});

/** list_audit_log: GET /v1/admin/audit, admin key only there and here (it holds every caller's IP). */
@Injectable()
export class AuditTools implements McpToolProvider {
  constructor(private readonly log: AuditLogService) {}

  tools() {
    return [
      defineTool({
        name: 'list_audit_log',
        title: 'Read the audit log',
        description:
          'Who changed what, newest first: every state change by a key, MCP or a provider webhook (actor, action, target, project, argument names — never values — and IP). ' +
          'Filters are exact: actor (admin, api_key, mcp, mcp:project…), action (project.created, lane.paused, mcp.send…), target, project_id, since/until (RFC 3339). ' +
          'next_cursor pages on. Needs the admin key, as GET /v1/admin/audit does.',
        annotations: READ_ONLY,
        adminOnly: true,
        audience: 'operator',
        input: z.strictObject({
          actor: z.string().min(1).max(100).optional(),
          action: z.string().min(1).max(100).optional(),
          target: z.string().min(1).max(200).optional(),
          project_id: projectIdArg.optional().describe('Only this project’s entries'),
          since: isoTime.max(40).optional(),
          until: isoTime.max(40).optional(),
          limit: z.number().int().min(1).max(500).default(50),
          cursor: z.string().max(200).optional(),
        }),
        output: z.object({ entries: z.array(entryView), next_cursor: z.string().nullable() }),
        run: async (args) => {
          const page = await this.log.list(await validateDto(AuditQueryDto, args));
          return {
            structured: { entries: page.items, next_cursor: page.next_cursor },
            text: `${page.items.length} audit entr${page.items.length === 1 ? 'y' : 'ies'}${page.next_cursor ? '; more with next_cursor' : ''}.`,
            table: page.items.length
              ? { rows: page.items, columns: ['created_at', 'actor', 'action', 'resource', 'project_id', 'ip'] }
              : undefined,
          };
        },
      }),
    ];
  }
}
