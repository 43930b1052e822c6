import { Module } from '@nestjs/common';
import type { DeliveryResult } from '../src/connectors/connector.js';
import { NotifyConnector } from '../src/connectors/connector.decorator.js';
import { ConnectorRegistry } from '../src/connectors/connector-registry.js';
import { RecordingConnectorModule } from './helpers/recording-connector.js';
import { startTestApp } from './helpers/test-app.js';
import { createTestDatabase } from './helpers/test-database.js';

@NotifyConnector()
class DuplicateLogConnector {
  readonly channel = 'sms' as const;
  readonly provider = 'log';
  readonly batchMax = 1;
  async send(): Promise<DeliveryResult[]> {
    return [];
  }
}
@Module({ providers: [DuplicateLogConnector] })
class DuplicateModule {}

@NotifyConnector()
class MisconfiguredConnector {
  readonly channel = 'whatsapp' as const;
  readonly provider = 'acme-gateway';
  readonly batchMax = 1;
  async send(): Promise<DeliveryResult[]> {
    return [];
  }
  validateConfiguration(): void {
    throw new Error('ACME_GATEWAY_TOKEN is not set: add it to the environment');
  }
}
@Module({ providers: [MisconfiguredConnector] })
class MisconfiguredModule {}

describe('connector discovery at boot', () => {
  it('selects the configured provider per channel, including one from another module', async () => {
    const t = await startTestApp({ env: { SMS_PROVIDER: 'recording' }, imports: [RecordingConnectorModule] });
    try {
      const registry = t.notifyd.app.get(ConnectorRegistry);
      expect(registry.forChannel('sms')?.provider).toBe('recording');
      expect(registry.forChannel('email')?.provider).toBe('log');
      expect(registry.isConfigured('whatsapp')).toBe(false);
      expect(registry.refusal('whatsapp')).toBe('whatsapp connector not configured: set WHATSAPP_PROVIDER');
    } finally {
      await t.close();
    }
  });

  it('fails start-up on a configured provider that no connector implements, listing the choices', async () => {
    const db = await createTestDatabase();
    try {
      await expect(startTestApp({ database: db, env: { EMAIL_PROVIDER: 'mailgun' } })).rejects.toThrow(
        /^EMAIL_PROVIDER=mailgun: no connector implements email\/mailgun\. Available for email: log, smtp\b.*\. Fix the variable/,
      );
    } finally {
      await db.drop();
    }
  });

  it('fails start-up when two connectors claim the same channel and provider', async () => {
    const db = await createTestDatabase();
    try {
      await expect(startTestApp({ database: db, imports: [DuplicateModule] })).rejects.toThrow(
        /Two connectors claim sms\/log/,
      );
    } finally {
      await db.drop();
    }
  });

  it('fails start-up when AgentMail or Cloudflare is selected without its credentials, naming the variables', async () => {
    const db = await createTestDatabase();
    try {
      await expect(startTestApp({ database: db, env: { EMAIL_PROVIDER: 'agentmail' } })).rejects.toThrow(
        /EMAIL_PROVIDER=agentmail needs AGENTMAIL_API_KEY/,
      );
      await expect(
        startTestApp({ database: db, env: { EMAIL_PROVIDER: 'cloudflare', CLOUDFLARE_ACCOUNT_ID: 'a'.repeat(32) } }),
      ).rejects.toThrow(/EMAIL_PROVIDER=cloudflare needs CLOUDFLARE_EMAIL_API_TOKEN \(/);
      await expect(startTestApp({ database: db, env: { EMAIL_FALLBACK_PROVIDER: 'cloudflare' } })).rejects.toThrow(
        /needs CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_EMAIL_API_TOKEN/,
      );
      await expect(
        startTestApp({
          database: db,
          env: { EMAIL_PROVIDER: 'cloudflare', CLOUDFLARE_ACCOUNT_ID: 'acme', CLOUDFLARE_EMAIL_API_TOKEN: 'token' },
        }),
      ).rejects.toThrow(/CLOUDFLARE_ACCOUNT_ID.*32-hex-digit account id/);
    } finally {
      await db.drop();
    }
  });

  it('fails start-up with the connector’s own message when its configuration is incomplete', async () => {
    const db = await createTestDatabase();
    try {
      await expect(
        startTestApp({ database: db, env: { WHATSAPP_PROVIDER: 'acme-gateway' }, imports: [MisconfiguredModule] }),
      ).rejects.toThrow('ACME_GATEWAY_TOKEN is not set');
      // Not selected, it is not asked: the app boots.
      const t = await startTestApp({ database: db, imports: [MisconfiguredModule] });
      await t.close();
    } finally {
      await db.drop();
    }
  });
});
