import type { OutboundMessage } from '../../connectors/connector.js';
import type { RenderedContent } from '../../templates/render/render-protocol.js';
import type { ClaimedJob } from './claimed-job.js';

export interface Sender {
  email: string;
  name?: string;
}

/**
 * A claimed job, rendered and addressed, as a connector receives it. `content` is what the
 * worker rendered (the job's stored template, or its inline fields when they hold Liquid
 * markup); without it the inline fields hold no markup and go as they are.
 */
export function buildMessage(
  job: ClaimedJob,
  sender: Sender | undefined,
  content?: RenderedContent,
  contentRedacted = false,
): OutboundMessage {
  const inline = job.payload;
  return {
    jobId: job.id,
    projectId: job.projectId,
    channel: job.channel,
    recipient: job.recipient,
    subscriberId: job.subscriberId,
    // The renderer already filled a template's absent parts from the inline ones.
    subject: content ? content.subject : inline.subject,
    // Inline content without a body is rendered with an empty one: the message still has none.
    body: content && (content.body !== '' || typeof inline.body === 'string') ? content.body : inline.body,
    bodyHtml: content ? content.bodyHtml : inline.body_html,
    from: job.channel === 'email' ? sender : undefined,
    marketing: job.payload.marketing === true,
    topic: job.topic,
    priority: job.priority,
    attempt: job.attempts,
    idempotencyKey: job.id,
    payload: job.payload,
    ...(contentRedacted ? { contentRedacted } : {}),
  };
}
