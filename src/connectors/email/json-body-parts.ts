import type { EmailAttachment, EmailContent } from './email-content.js';

/**
 * The parts of a send body that JSON email APIs with snake_case fields name alike (AgentMail,
 * Cloudflare): cc, reply_to, subject, text, html and headers, each left out when empty.
 */
export function commonBodyParts(email: EmailContent): Record<string, unknown> {
  return {
    ...(email.cc.length ? { cc: email.cc } : {}),
    ...(email.replyTo ? { reply_to: email.replyTo } : {}),
    subject: email.subject,
    ...(email.text !== undefined ? { text: email.text } : {}),
    ...(email.html !== undefined ? { html: email.html } : {}),
    ...(Object.keys(email.headers).length ? { headers: email.headers } : {}),
  };
}

/** `attachments`, each in the shape the provider takes; nothing when the email has none. */
export function attachmentsAs(
  email: EmailContent,
  shape: (attachment: EmailAttachment) => Record<string, unknown>,
): { attachments?: Record<string, unknown>[] } {
  return email.attachments.length ? { attachments: email.attachments.map(shape) } : {};
}

/** An attachment as AgentMail and Resend take it. */
export const namedAttachment = (a: EmailAttachment) => ({
  filename: a.filename,
  content: a.content,
  content_type: a.contentType,
});

/** An attachment as SendGrid and Cloudflare take it (the SendGrid v3 shape). */
export const dispositionAttachment = (a: EmailAttachment) => ({
  content: a.content,
  filename: a.filename,
  type: a.contentType,
  disposition: 'attachment',
});
