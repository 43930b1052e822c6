import { Module } from '@nestjs/common';
import { InstanceAgentmailConnector } from './agentmail/agentmail.connector.js';
import { InstanceCloudflareEmailConnector } from './cloudflare/cloudflare.connector.js';
import { InstancePostmarkConnector } from './postmark/postmark.connector.js';
import { InstanceResendConnector } from './resend/resend.connector.js';
import { InstanceSendgridConnector } from './sendgrid/sendgrid.connector.js';
import { InstanceSesConnector } from './ses/ses.connector.js';
import { InstanceSmtpConnector } from './smtp/smtp.connector.js';

/**
 * The email providers (EMAIL_PROVIDER / EMAIL_FALLBACK_PROVIDER): every one is registered, the
 * registry selects the configured ones, and only those check their settings at boot.
 */
@Module({
  providers: [
    InstanceSmtpConnector,
    InstanceResendConnector,
    InstancePostmarkConnector,
    InstanceSesConnector,
    InstanceSendgridConnector,
    InstanceAgentmailConnector,
    InstanceCloudflareEmailConnector,
  ],
})
export class EmailConnectorsModule {}
