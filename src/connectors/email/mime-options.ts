import type { SendMailOptions } from 'nodemailer';
import { domainOf, type EmailContent } from './email-content.js';

/**
 * The email as nodemailer's message options: nodemailer builds the RFC 5322 message from them
 * (SMTP sends it; SES takes it as raw MIME when the message has attachments).
 */
export function mimeOptions(email: EmailContent): SendMailOptions & { messageId: string } {
  return {
    from: email.from.name ? { name: email.from.name, address: email.from.email } : email.from.email,
    to: email.to,
    cc: email.cc.length ? email.cc : undefined,
    replyTo: email.replyTo,
    subject: email.subject,
    text: email.text,
    html: email.html,
    headers: email.headers,
    // Stable across retries: a receiver can drop the duplicate of an at-least-once resend.
    messageId: `<${email.jobId}@${domainOf(email.from.email)}>`,
    attachments: email.attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      encoding: 'base64',
      contentType: a.contentType,
    })),
  };
}
