import { Module } from '@nestjs/common';
import { InstancePostmarkConnector } from './postmark/postmark.connector.js';
import { InstanceResendConnector } from './resend/resend.connector.js';
import { InstanceSmtpConnector } from './smtp/smtp.connector.js';

/**
 * The email providers (EMAIL_PROVIDER / EMAIL_FALLBACK_PROVIDER): every one is registered, the
 * registry selects the configured ones, and only those check their settings at boot.
 */
@Module({ providers: [InstanceSmtpConnector, InstanceResendConnector, InstancePostmarkConnector] })
export class EmailConnectorsModule {}
