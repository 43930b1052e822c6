import { HttpException, Injectable, Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AuditService } from '../../audit/audit.service.js';
import { ApiError } from '../../common/errors/api-error.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { deniedReason, McpToolRegistry } from '../mcp-tool-registry.js';
import { type McpCaller, type McpTool, type McpToolContext, McpToolError } from '../mcp-tool.js';
import { requestValueProblem } from '../../common/validation/request-value.js';
import { boundText, renderTextTable } from './text-table.js';
import { describeIssues } from './zod-issues.js';

/**
 * Runs one tools/call: access check, argument validation, the handler, the audit line. Every
 * failure an agent can act on becomes a result with isError and a sentence saying what to do;
 * only a bug is logged (and still answered as isError without internals).
 */
@Injectable()
export class McpCallService {
  private readonly logger = new Logger('Mcp');

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly audit: AuditService,
    private readonly projects: ProjectsService,
  ) {}

  async call(name: string, rawArgs: Record<string, unknown> | undefined, caller: McpCaller): Promise<CallToolResult> {
    const started = performance.now();
    const args = rawArgs ?? {};
    const tool = this.registry.get(name);
    let outcome: 'ok' | 'error' | 'denied' | 'invalid' | 'unknown_tool' = 'error';
    try {
      if (!tool) {
        outcome = 'unknown_tool';
        return failure(`There is no tool '${name}'. List the tools with tools/list.`);
      }
      const denied = deniedReason(tool, caller);
      if (denied) {
        outcome = 'denied';
        return failure(denied);
      }
      // As at the HTTP door: a NUL character or nesting past 100 levels, named, rather than a failed statement or a stack overflow later.
      const problem = requestValueProblem(args);
      if (problem !== undefined) {
        outcome = 'invalid';
        return failure(`Invalid arguments for ${name}: ${problem}`);
      }
      const parsed = tool.input.safeParse(args);
      if (!parsed.success) {
        outcome = 'invalid';
        return failure(`Invalid arguments for ${name}: ${describeIssues(parsed.error.issues)}`);
      }
      const result = await tool.run(parsed.data, contextFor(caller, this.projects));
      outcome = result.isError ? 'error' : 'ok';
      const text = result.table ? `${result.text}\n\n${renderTextTable(result.table)}` : result.text;
      return {
        content: [{ type: 'text', text: boundText(text) }],
        structuredContent: result.structured as Record<string, unknown>,
        isError: result.isError ?? false,
      };
    } catch (err) {
      return failure(this.explain(err, name));
    } finally {
      // Argument names only: values may hold recipients, message bodies or secrets.
      await this.audit.record({
        projectId: caller.projectId,
        actor: actorName(caller),
        action: `mcp.${storableName(name)}`,
        resource: tool?.name ?? null,
        metadata: {
          args: Object.keys(args).slice(0, 50).map(storableName),
          outcome,
          ms: Math.round(performance.now() - started),
          transport: caller.transport,
        },
        ip: caller.ip ?? null,
      });
    }
  }

  private explain(err: unknown, tool: string): string {
    if (err instanceof McpToolError) return err.message;
    if (err instanceof ApiError || err instanceof HttpException) {
      const body = err.getResponse();
      if (typeof body === 'object' && body && 'message' in body) {
        const message = (body as { message: unknown }).message;
        return Array.isArray(message) ? message.join('; ') : String(message);
      }
      return err.message;
    }
    this.logger.error(`tool ${tool} failed: ${(err as Error)?.stack ?? String(err)}`);
    return `${tool} failed on an internal error; the server log has the details. Try again, or check the instance with the digest tool.`;
  }
}

/**
 * A caller's tool or argument name as its audit line keeps it: at most 64 characters, without
 * NUL. The names of refused calls are the caller's own text, written before anything checked
 * them: uncut, one call put megabytes in audit_log; a NUL failed the insert and left the call
 * unaudited.
 */
function storableName(name: string): string {
  return name.replaceAll('\u0000', '').slice(0, 64);
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** `mcp` for the admin key (notifyd's actor), `mcp:readonly`, `mcp:project`. */
export function actorName(caller: McpCaller): string {
  return caller.role === 'admin' ? 'mcp' : `mcp:${caller.role}`;
}

function contextFor(caller: McpCaller, projects: ProjectsService): McpToolContext {
  const resolve = (requested: string | undefined, required = false): string | null => {
    if (caller.role === 'project') {
      if (requested !== undefined && requested !== caller.projectId) {
        throw new McpToolError(
          `This key belongs to project '${caller.projectId}'; it cannot act on project '${requested}'. Leave project_id out.`,
        );
      }
      return caller.projectId;
    }
    if (required && !requested)
      throw new McpToolError('project_id is required with an operator key: find it with list_projects.');
    return requested ?? null;
  };
  const project = resolve as McpToolContext['project'];
  const createdBy = caller.role === 'project' ? (caller.keyHint ?? 'mcp:project') : actorName(caller);
  return {
    caller,
    actor: { actor: actorName(caller), ip: caller.ip },
    createdBy,
    project,
    scopedProject: (requested) => projects.get(project(requested, true)),
  };
}

export type { McpTool };
