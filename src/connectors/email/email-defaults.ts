import type { AppConfig } from '../../config/app-config.js';
import type { EmailContentOptions } from './email-content.js';

/** What every email connector takes from the instance besides its own credentials. */
export function emailDefaults(config: AppConfig): EmailContentOptions & { timeoutMs: number } {
  return {
    publicUrl: config.server.publicUrl,
    defaultFrom: { email: config.connectors.emailFrom, name: config.connectors.emailFromName },
    timeoutMs: config.outbound.timeoutMs,
  };
}

export type EmailDefaults = ReturnType<typeof emailDefaults>;
