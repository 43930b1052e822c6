import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error.js';
import { createValidationPipe } from '../../common/validation/validation.pipe.js';
import { CHANNELS } from '../../config/sections/connectors.config.js';
import { SendRequestDto, type SendResponseDto } from '../../jobs/dto/send.dto.js';
import { EnqueueService } from '../../jobs/enqueue.service.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { McpToolRegistry } from '../mcp-tool-registry.js';
import type { McpToolDefinition } from '../mcp-tool.js';

/** What a tool call returns, in MCP's shape: a failure is a result with isError, never a throw. */
export interface McpToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

/**
 * A tool with its schemas and handler. McpToolDefinition holds what tools/list shows; the MCP
 * issue serves `call` over Streamable HTTP and stdio.
 */
export interface McpCallableTool extends McpToolDefinition {
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  call(args: Record<string, unknown>): Promise<McpToolResult>;
}

const DEFAULT_WAIT = '10s';

/**
 * `send_and_wait`: an agent sends one message and learns the provider's answer in the same
 * call (POST /v1/send with `wait`, for a project chosen by id since MCP runs on operator keys).
 */
@Injectable()
export class SendAndWaitTool implements McpCallableTool, OnModuleInit {
  readonly name = 'send_and_wait';
  readonly description =
    'Send one message to one recipient on one channel and wait (default 10s, at most 30s) for the provider’s answer: ' +
    'status sent with the provider message id, or failed with the provider’s error. If the time runs out, the answer ' +
    'says timed_out with the job id; follow it with get_job.';
  readonly annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
  readonly inputSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['project_id', 'channel', 'to', 'body'],
    properties: {
      project_id: { type: 'string', description: 'Project that sends (its sender identity and quota apply)' },
      channel: { type: 'string', enum: [...CHANNELS] },
      to: { type: 'string', description: 'Address on that channel: email, E.164 phone, chat id, subscriber id for in_app/push' },
      subject: { type: 'string' },
      body: { type: 'string' },
      wait: { type: 'string', pattern: '^\\d{1,6}(ms|s)$', default: DEFAULT_WAIT, description: 'How long to wait for the outcome, at most 30s' },
      idempotency_key: { type: 'string', description: 'Makes a retried call safe: the same key returns the same job' },
    },
  };
  readonly outputSchema = {
    type: 'object',
    required: ['job_id', 'status', 'final', 'timed_out'],
    properties: {
      job_id: { type: 'string' },
      status: { type: 'string' },
      final: { type: 'boolean' },
      timed_out: { type: 'boolean' },
      provider: { type: ['string', 'null'] },
      provider_message_id: { type: ['string', 'null'] },
      error: { type: ['string', 'null'] },
      next_retry_at: { type: ['string', 'null'] },
    },
  };

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly projects: ProjectsService,
    private readonly enqueue: EnqueueService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async call(args: Record<string, unknown>): Promise<McpToolResult> {
    try {
      const { project_id: projectId, channel, ...rest } = args;
      if (typeof projectId !== 'string') throw ApiError.unprocessable('validation_failed', 'project_id is required: list projects with list_projects.');
      const dto = (await createValidationPipe().transform(
        { channels: [channel], wait: DEFAULT_WAIT, ...rest },
        { type: 'body', metatype: SendRequestDto },
      )) as SendRequestDto;
      const project = await this.projects.get(projectId);
      return present(await this.enqueue.send(project, dto));
    } catch (err) {
      if (err instanceof ApiError) {
        const body = err.getResponse() as { message?: string };
        return { content: [{ type: 'text', text: body.message ?? err.message }], isError: true };
      }
      throw err;
    }
  }
}

function present(response: SendResponseDto): McpToolResult {
  const outcome = response.outcomes?.[0];
  if (!outcome) {
    const why = response.skipped.map((s) => `${s.channel}: ${s.reason}`).join('; ') || 'nothing was queued';
    return { content: [{ type: 'text', text: `Not sent: ${why}.` }], isError: true };
  }
  const structured = {
    job_id: outcome.id,
    status: outcome.status,
    final: outcome.final,
    timed_out: response.timed_out ?? false,
    provider: outcome.provider,
    provider_message_id: outcome.provider_message_id,
    error: outcome.error,
    next_retry_at: outcome.next_retry_at,
  };
  const text = response.timed_out
    ? `Job ${outcome.id} is still ${outcome.status} after the wait${outcome.error ? ` (last error: ${outcome.error})` : ''}; check it later with get_job.`
    : outcome.status === 'sent'
      ? `Sent by ${outcome.provider} (provider message id ${outcome.provider_message_id ?? 'none'}); job ${outcome.id}.`
      : `Job ${outcome.id} ${outcome.status}: ${outcome.error ?? 'no detail'}.`;
  return { content: [{ type: 'text', text }], structuredContent: structured, isError: outcome.status === 'failed' };
}
