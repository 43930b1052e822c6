import { z } from 'zod';

/**
 * The effective configuration as an operator (or an agent) needs to reason about an incident:
 * what sends each channel, how fast, what a pause does, whether delivery evidence comes in,
 * how long jobs are kept. Secrets are never part of it: only whether they are set. Field
 * names are the API's (snake_case); the REST route and the MCP tool return this object.
 */
export const effectiveSettings = z.object({
  version: z.string(),
  role: z.string(),
  public_url: z.string().nullable().describe('PUBLIC_URL: links in messages and provider callbacks; null when unset'),
  channels: z.array(
    z.object({
      channel: z.string(),
      provider: z
        .string()
        .nullable()
        .describe('The instance provider (<CHANNEL>_PROVIDER); null when the channel is not configured'),
      fallback_provider: z
        .string()
        .nullable()
        .describe('<CHANNEL>_FALLBACK_PROVIDER: the failover breaker routes here while the primary fails'),
      rate_per_sec: z.number().describe('<CHANNEL>_RATE_PER_SEC; 0 = unpaced (see paced)'),
      paced: z.boolean(),
      rate_text: z.string().describe('"8/s" or "unpaced"'),
      burst: z.number().describe('Calls an idle lane may make at once (rate × PACING_BURST_SECS, at least 1)'),
    }),
  ),
  pacing: z.object({
    burst_secs: z.number(),
    rate_limit_pause_secs: z.number().describe('Lane pause after a 429 without Retry-After (RATE_LIMIT_PAUSE_SECS)'),
    quota_pause_secs: z.number().describe('Lane pause after a quota error that gives no reset (QUOTA_PAUSE_SECS)'),
    operator_pause_default_secs: z.number().describe('pause_lane without duration_secs'),
    adaptive: z.boolean().describe('PACING_ADAPTIVE: slow down on the provider’s quota headers'),
    fair_share: z.boolean().describe('PACING_FAIR_SHARE: projects interleave on a paced lane'),
  }),
  worker: z.object({
    max_attempts: z.number().describe('WORKER_MAX_ATTEMPTS: attempts before a transient failure becomes failed'),
    lease_secs: z.number(),
    send_timeout_ms: z.number(),
  }),
  retention: z.object({
    job_retention_days: z
      .number()
      .nullable()
      .describe('Sent, cancelled and bounced jobs are deleted after this (null: kept)'),
    failed_job_retention_days: z.number().nullable().describe('Failed jobs are deleted after this (null: kept)'),
  }),
  provider_webhooks: z.array(
    z.object({
      provider: z.string(),
      route: z.string().describe('Where the provider posts its delivery events (under PUBLIC_URL)'),
      configured: z.boolean().describe('Whether the secret that authenticates it is set (else the route answers 503)'),
      setting: z.string().describe('The variable(s) that configure it'),
      last_event_at: z.string().nullable().describe('The newest event received in the last 7 days; null when none'),
    }),
  ),
});
export type EffectiveSettings = z.input<typeof effectiveSettings>;
