import { type EmailContent, formatAddress } from '../email-content.js';
import { mimeOptions } from '../mime-options.js';

/** SES accepts ASCII letters, digits, _ and - in tag names and values. */
const tagText = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256) || '_';
const tags = (email: EmailContent) => email.tags.map((t) => ({ Name: tagText(t.name), Value: tagText(t.value) }));
const headers = (email: EmailContent) => Object.entries(email.headers).map(([Name, Value]) => ({ Name, Value }));
const text = (Data: string) => ({ Data, Charset: 'UTF-8' });

/** `POST /v2/email/outbound-emails` with Simple content (subject, bodies, headers). */
export function simpleEmailRequest(email: EmailContent, configurationSet: string | undefined): Record<string, unknown> {
  return {
    FromEmailAddress: formatAddress(email.from),
    Destination: { ToAddresses: [email.to], ...(email.cc.length ? { CcAddresses: email.cc } : {}) },
    ...(email.replyTo ? { ReplyToAddresses: [email.replyTo] } : {}),
    Content: {
      Simple: {
        Subject: text(email.subject),
        Body: {
          ...(email.text !== undefined ? { Text: text(email.text) } : {}),
          ...(email.html !== undefined ? { Html: text(email.html) } : {}),
        },
        ...(Object.keys(email.headers).length ? { Headers: headers(email) } : {}),
      },
    },
    EmailTags: tags(email),
    ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
  };
}

/**
 * `POST /v2/email/outbound-emails` with Raw content: the MIME message nodemailer builds
 * (attachments). nodemailer is imported here, on the first message with attachments, so an
 * SES worker that sends none never loads it.
 */
export async function rawEmailRequest(
  email: EmailContent,
  configurationSet: string | undefined,
): Promise<Record<string, unknown>> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer/index.js');
  const mime = await new MailComposer(mimeOptions(email)).compile().build();
  return {
    FromEmailAddress: formatAddress(email.from),
    Destination: { ToAddresses: [email.to], ...(email.cc.length ? { CcAddresses: email.cc } : {}) },
    Content: { Raw: { Data: mime.toString('base64') } },
    EmailTags: tags(email),
    ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
  };
}

/**
 * `POST /v2/email/outbound-bulk-emails`: SES's bulk call takes one template for every entry, so
 * the template is the message itself (`{{{subject}}}`, `{{{text}}}`, `{{{html}}}`, unescaped) and
 * each entry brings its own content as replacement data, with its own headers (the unsubscribe
 * link differs per message) and tags. The emails share sender and reply-to (the caller groups them).
 */
export function bulkEmailRequest(
  emails: EmailContent[],
  configurationSet: string | undefined,
): Record<string, unknown> {
  const first = emails[0];
  return {
    FromEmailAddress: formatAddress(first.from),
    ...(first.replyTo ? { ReplyToAddresses: [first.replyTo] } : {}),
    DefaultContent: {
      Template: {
        TemplateContent: {
          Subject: '{{{subject}}}',
          ...(first.text !== undefined ? { Text: '{{{text}}}' } : {}),
          ...(first.html !== undefined ? { Html: '{{{html}}}' } : {}),
        },
        TemplateData: '{}',
      },
    },
    BulkEmailEntries: emails.map((email) => ({
      Destination: { ToAddresses: [email.to], ...(email.cc.length ? { CcAddresses: email.cc } : {}) },
      ReplacementTags: tags(email),
      ...(Object.keys(email.headers).length ? { ReplacementHeaders: headers(email) } : {}),
      ReplacementEmailContent: {
        ReplacementTemplate: {
          ReplacementTemplateData: JSON.stringify({
            subject: email.subject,
            text: email.text ?? '',
            html: email.html ?? '',
          }),
        },
      },
    })),
    ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
  };
}

/** Emails that may share one bulk call: same sender, reply-to and body parts. */
export function bulkGroupKey(email: EmailContent): string {
  return JSON.stringify([
    email.from.email,
    email.from.name ?? '',
    email.replyTo ?? '',
    email.text !== undefined,
    email.html !== undefined,
  ]);
}
