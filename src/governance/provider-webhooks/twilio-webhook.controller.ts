import { HttpStatus, Inject, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../common/errors/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ProjectsService } from '../../projects/projects.service.js';
import { ProviderWebhookResponseDto } from './dto/provider-webhook.dto.js';
import { ProviderEvidenceService } from './provider-evidence.service.js';
import { twilioInboundEvent, twilioStatusEvent } from './providers/twilio.events.js';
import { verifyTwilioSignature } from './verifiers/twilio-signature.js';
import { header } from './verifiers/verification.js';
import { requireSecret, verified, understood } from './webhook-request.js';
import { ProviderWebhookController, Signed, SignedCallback, type SignedRequest } from './webhook-routes.js';

/** Twilio callbacks are small; notifyd stops reading one at 64 KiB (413). */
const TWILIO_BODY_LIMIT = 64 * 1024;

/** An empty TwiML answer: nothing is sent back to the person who texted. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

@ProviderWebhookController()
export class TwilioWebhookController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly evidence: ProviderEvidenceService,
    private readonly projects: ProjectsService,
  ) {}

  @SignedCallback(
    'POST /twilio/status',
    [400, 401, 413, 415, 503],
    {
      summary: 'Twilio message status callbacks (delivered, undelivered, failed), X-Twilio-Signature verified',
      description:
        'The SMS connector sets StatusCallback to `PUBLIC_URL/webhooks/twilio/status?job=<id>`. The signature (HMAC-SHA1 with TWILIO_AUTH_TOKEN over that URL and the sorted form ' +
        'parameters) is checked against the URL rebuilt from PUBLIC_URL, never the Host header. `delivered` stamps delivered_at once; `undelivered`/`failed` bounce the job ' +
        '(`twilio <ErrorCode>`), first outcome wins; ErrorCode 21610 (the recipient sent STOP) suppresses the number. A callback for another MessageSid than the job’s is kept but not applied.',
    },
    TWILIO_BODY_LIMIT,
  )
  @ApiQuery({ name: 'job', required: false, description: 'The job id the callback URL carries.' })
  async twilioStatusWebhook(
    @Signed() signed: SignedRequest,
    @Query('job') job: string | undefined,
  ): Promise<ProviderWebhookResponseDto> {
    const form = await this.verifiedForm(signed);
    const event = understood('Twilio', () => twilioStatusEvent(typeof job === 'string' ? job : undefined, form));
    return { success: true, ...(await this.evidence.apply([event])) };
  }

  @SignedCallback(
    'POST /twilio/inbound',
    [400, 401, 404, 413, 415, 503],
    {
      summary: 'Twilio incoming messages: a STOP reply (Advanced Opt-Out, OptOutType=STOP) suppresses the sender',
      description:
        'Set the messaging service’s (or number’s) incoming message webhook to `PUBLIC_URL/webhooks/twilio/inbound?project=<project id>`. Signed like status callbacks. ' +
        '`OptOutType=STOP` suppresses `From` (sms, or whatsapp for `whatsapp:` senders) in that project, once per MessageSid. Other messages are acknowledged and not stored. Answers empty TwiML.',
    },
    TWILIO_BODY_LIMIT,
  )
  @ApiQuery({
    name: 'project',
    required: true,
    description: 'The project whose suppression list receives STOP replies.',
  })
  @ApiOkResponse({
    description: 'Empty TwiML.',
    content: { 'text/xml': { schema: { type: 'string', example: EMPTY_TWIML } } },
  })
  async twilioInboundWebhook(
    @Signed() signed: SignedRequest,
    @Query('project') project: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const form = await this.verifiedForm(signed);
    if (typeof project !== 'string' || !project)
      throw ApiError.badRequest(
        'invalid_query',
        'project is required: the webhook URL is PUBLIC_URL/webhooks/twilio/inbound?project=<project id>.',
      );
    await this.projects.get(project);
    const event = understood('Twilio', () => twilioInboundEvent(project, form));
    if (event) await this.evidence.apply([event]);
    void reply.type('text/xml; charset=utf-8');
    return EMPTY_TWIML;
  }

  /** Shared checks of every Twilio callback (its size is capped by the route): configured, form-encoded, signed. */
  private async verifiedForm({ raw, contentType, headers, url }: SignedRequest): Promise<Record<string, string>> {
    const token = requireSecret(this.config.sms.twilio.authToken, 'TWILIO_AUTH_TOKEN', 'Twilio');
    const publicUrl = requireSecret(this.config.server.publicUrl, 'PUBLIC_URL', 'Twilio callback');
    if (!/^application\/x-www-form-urlencoded\b/i.test(contentType ?? '')) {
      throw new ApiError(
        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        'unsupported_media_type',
        'Twilio callbacks are form-encoded (application/x-www-form-urlencoded).',
      );
    }
    const form = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    await verified('Twilio', () =>
      verifyTwilioSignature(token, header(headers, 'x-twilio-signature'), `${publicUrl}${url}`, form),
    );
    return form;
  }
}
