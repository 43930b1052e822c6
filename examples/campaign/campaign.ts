/**
 * A campaign through POST /v1/batch: one message for a whole audience, in calls of at most
 * 10 000 subscribers, at bulk priority (transactional messages keep going first), each call
 * replay-safe through its own idempotency key. The subject and body are Liquid, rendered for
 * each recipient from their stored profile (`{{first_name}}`, `{{ subscriber.data.plan }}`…);
 * GET /v1/jobs/:id shows what each one received (`rendered`).
 * Run: NOTIFYD_URL=… NOTIFYD_API_KEY=sk_… npx tsx campaign.ts
 */
import { Notifyd } from '../../clients/typescript/src/index.js';

export interface CampaignResult {
  calls: number;
  jobsCreated: number;
  jobsDeduplicated: number;
  jobsSkipped: number;
}

const BATCH_MAX = 10_000;

export async function sendCampaign(options: {
  url: string;
  apiKey: string;
  campaignId: string;
  subscribers: string[];
  subject: string;
  body: string;
  chunkSize?: number;
}): Promise<CampaignResult> {
  const size = Math.min(options.chunkSize ?? BATCH_MAX, BATCH_MAX);
  const result: CampaignResult = { calls: 0, jobsCreated: 0, jobsDeduplicated: 0, jobsSkipped: 0 };
  const notifyd = new Notifyd({ baseUrl: options.url, apiKey: options.apiKey });
  for (let start = 0; start < options.subscribers.length; start += size) {
    // A refusal throws NotifydError (its code, message and request id); a 429 or a lost answer is retried by the client.
    const body = await notifyd.batch({
      subscribers: options.subscribers.slice(start, start + size),
      channels: ['email', 'in_app'],
      subject: options.subject,
      body: options.body,
      priority: 'bulk',
      // Stable per chunk: re-running the script after a crash queues nothing twice.
      idempotency_key: `${options.campaignId}-${start / size}`,
    });
    result.calls++;
    result.jobsCreated += body.jobs_created;
    result.jobsDeduplicated += body.jobs_deduplicated;
    result.jobsSkipped += body.jobs_skipped;
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const subscribers = Array.from({ length: 25_000 }, (_, i) => `user_${i}`);
  const result = await sendCampaign({
    url: process.env.NOTIFYD_URL ?? 'http://localhost:3400',
    apiKey: process.env.NOTIFYD_API_KEY ?? '',
    campaignId: 'winter-sale-2026',
    subscribers,
    subject: 'Winter sale: 30 % off until Sunday',
    body: 'Hi {{first_name | default: "there"}}, everything is 30 % off until Sunday.',
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
