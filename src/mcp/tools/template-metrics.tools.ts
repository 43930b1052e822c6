import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { DIGEST_WINDOWS, type DigestWindow } from '../../digest/digest.types.js';
import {
  TEMPLATE_BUCKETS,
  type TemplateBucket,
  TemplateMetricsService,
} from '../../observability/template-metrics/template-metrics.service.js';
import { defineTool, READ_ONLY } from '../mcp-tool.js';
import type { McpToolProvider } from '../mcp-tool-registry.js';

// The choices the service accepts, named once (as digest.tools.ts does for the digest).
const windows = Object.keys(DIGEST_WINDOWS) as [DigestWindow, ...DigestWindow[]];
const buckets = Object.keys(TEMPLATE_BUCKETS) as [TemplateBucket, ...TemplateBucket[]];

const row = z.object({
  template: z.string(),
  bucket: z.string(),
  sent: z.number(),
  failed: z.number(),
  delivered: z.number(),
  bounced: z.number(),
  complained: z.number(),
  opened: z.number(),
  clicked: z.number(),
});

/** notifyd's template_metrics: the email funnel per template, to find the one that bounces. */
@Injectable()
export class TemplateMetricsTools implements McpToolProvider {
  constructor(private readonly metrics: TemplateMetricsService) {}

  tools() {
    return [
      defineTool({
        name: 'template_metrics',
        title: 'Email funnel per template',
        description:
          'Sent, failed, delivered, bounced, complained, opened and clicked per email template and hour or day. Use it after the digest flags a bounce or complaint rate, to find the template (or campaign tag) behind it.',
        annotations: READ_ONLY,
        audience: 'operator',
        input: z.strictObject({
          window: z.enum(windows).optional().describe('Default 7d'),
          bucket: z.enum(buckets).optional().describe('Default 1d'),
          project_id: z.string().min(1).max(64).optional().describe('Only this project'),
        }),
        output: z.object({ window: z.string(), bucket: z.string(), rows: z.array(row) }),
        run: async ({ window, bucket, project_id }) => {
          const funnel = await this.metrics.funnel({ window, bucket, projectId: project_id });
          const lines = funnel.rows.map(
            (r) =>
              `${r.bucket.slice(0, r.bucket.indexOf('T') + (funnel.bucket === '1h' ? 6 : 0))} ${r.template}: sent ${r.sent}, delivered ${r.delivered}, bounced ${r.bounced}, complained ${r.complained}, opened ${r.opened}, clicked ${r.clicked}, failed ${r.failed}`,
          );
          return {
            structured: funnel,
            text: lines.length ? lines.join('\n') : `No email in the last ${funnel.window}.`,
          };
        },
      }),
    ];
  }
}
