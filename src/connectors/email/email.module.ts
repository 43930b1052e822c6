import { Module } from '@nestjs/common';
import { InstanceSmtpConnector } from './smtp/smtp.connector.js';

/**
 * The email providers (EMAIL_PROVIDER / EMAIL_FALLBACK_PROVIDER): every one is registered, the
 * registry selects the configured ones, and only those check their settings at boot.
 */
@Module({ providers: [InstanceSmtpConnector] })
export class EmailConnectorsModule {}
