import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { DigestService } from '../../digest/digest.service.js';
import { DigestNotifyRequestDto } from '../../digest/dto/digest.dto.js';
import { DigestNotifier } from '../../digest/notify/digest-notifier.service.js';
import { DIGEST_WINDOWS, SEVERITIES } from '../../digest/digest.types.js';
import { renderMarkdown } from '../../digest/render/markdown.js';
import { defineTool, READ_ONLY, SENDS_MESSAGE } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';
import { validateDto } from './validate-dto.js';

const windows = Object.keys(DIGEST_WINDOWS) as [keyof typeof DIGEST_WINDOWS, ...(keyof typeof DIGEST_WINDOWS)[]];

const finding = z.object({
  severity: z.enum(SEVERITIES),
  code: z.string(),
  message: z.string(),
  action: z.string().describe('The endpoint, tool or variable that fixes it'),
  evidence: z.record(z.string(), z.unknown()),
  harm: z
    .object({
      held: z.number(),
      lost: z.number(),
      projects: z.number(),
      channels: z.array(z.string()),
      seconds: z.number().nullable(),
    })
    .optional()
    .describe(
      'On findings about something failing now: messages held (late) or lost, projects, channels, for how long; findings of one severity are ranked by it',
    ),
  owner: z
    .enum(['operator', 'caller'])
    .optional()
    .describe(
      'Who must act: the operator of this instance, or the caller (application) of the projects in project_ids',
    ),
  project_ids: z.array(z.string()).optional(),
  calls: z
    .array(
      z.object({
        tool: z.string(),
        arguments: z.record(z.string(), z.unknown()),
        admin: z.boolean().describe('Needs the admin key'),
        purpose: z.string(),
      }),
    )
    .optional()
    .describe('The exact MCP calls that check and fix it, in order'),
});

/**
 * The digest report as structured content. The sections an agent acts on are described; the
 * report is open (looseObject) so a section the digest gains later does not break clients.
 */
const digestReport = z.looseObject({
  window: z.string(),
  window_seconds: z.number(),
  since: z.string(),
  generated_at: z.string(),
  findings: z.array(finding).describe('Ranked critical → warning → info; never empty'),
  summary: z.object({ critical: z.number(), warning: z.number(), info: z.number() }),
  instance: z.looseObject({}),
  queue: z.looseObject({ pending: z.number(), processing: z.number(), retry: z.number() }),
  outcomes: z.array(z.looseObject({})),
  failures: z.array(z.looseObject({ reason: z.string(), count: z.number(), sample_job_id: z.string() })),
  lanes: z.array(z.looseObject({})),
  projects: z.array(z.looseObject({})),
});

/** The operator digest: the first tool an agent should call; notify_digest sends it to people. */
@Injectable()
export class DigestTools implements McpToolProvider {
  constructor(
    private readonly digest: DigestService,
    private readonly notifier: DigestNotifier,
  ) {}

  tools() {
    return [
      defineTool({
        name: 'digest',
        title: 'Operator digest',
        description:
          'Start here. The state of the instance over a window (default 24h): queue and how late its oldest job is per band, worker processes alive (heartbeats), ' +
          'what is retrying now and why, outcomes per channel × provider, ' +
          'top failure causes with a sample job id, retries waiting, latency, deliverability (bounce and complaint rates), projects, lanes, disabled webhooks, ' +
          'queue-table bloat — and ranked findings (critical first, then by harm: messages held or lost, projects, how long), each with the action (endpoint, tool or variable) that fixes it. ' +
          'Investigate a finding with list_jobs/get_job, fix it, then prove it with send_test.',
        annotations: READ_ONLY,
        audience: 'operator',
        input: z.strictObject({
          window: z
            .enum(windows)
            .default('24h')
            .describe(`Time window: ${windows.join(', ')}`),
          format: z
            .enum(['markdown', 'json'])
            .default('markdown')
            .describe('Text content as Markdown (default) or pretty JSON; structured content is the same either way'),
        }),
        output: digestReport,
        run: async ({ window, format }) => {
          const report = await this.digest.build({ window });
          return {
            structured: report as unknown as z.input<typeof digestReport>,
            text: format === 'json' ? JSON.stringify(report, null, 2) : renderMarkdown(report),
          };
        },
      }),
      defineTool({
        name: 'notify_digest',
        title: 'Send the digest to people',
        description:
          'Send the digest now (whatever its findings) to DIGEST_NOTIFY, or to the target given in to: slack:<incoming webhook URL>, discord:<webhook URL>, telegram:<chat id or @channel> or email:<address>. ' +
          'As POST /v1/admin/digest/notify: it posts a message, so each call sends another.',
        annotations: SENDS_MESSAGE,
        audience: 'operator',
        input: z.strictObject({
          to: z.string().min(1).max(2100).optional().describe('Target; left out, DIGEST_NOTIFY'),
          window: z
            .enum(windows)
            .optional()
            .describe(`Time window: ${windows.join(', ')}; default from DIGEST_NOTIFY_EVERY`),
        }),
        output: z.object({
          provider: z.string(),
          provider_message_id: z.string().nullable(),
          window: z.string(),
          summary: z.object({ critical: z.number(), warning: z.number(), info: z.number() }),
        }),
        run: async (args, context) => {
          const dto = await validateDto(DigestNotifyRequestDto, args);
          const sent = await this.notifier.notify({ to: dto.to, window: dto.window }, context.actor);
          const { critical, warning, info } = sent.summary;
          return {
            structured: {
              provider: sent.provider,
              provider_message_id: sent.provider_message_id,
              window: sent.window,
              summary: { critical, warning, info },
            },
            text: `Digest (${sent.window}: ${critical} critical, ${warning} warning, ${info} info) sent through ${sent.provider}.`,
          };
        },
      }),
    ];
  }
}
