import { z } from 'zod';
import { authSection } from './sections/auth.config.js';
import { connectorsSection } from './sections/connectors.config.js';
import { databaseSection } from './sections/database.config.js';
import { digestSection } from './sections/digest.config.js';
import { observabilitySection } from './sections/observability.config.js';
import { emailProvidersSection } from './sections/email-providers.config.js';
import { extensionsSection } from './sections/extensions.config.js';
import { failoverSection } from './sections/failover.config.js';
import { secretsSection } from './sections/secrets.config.js';
import { inboxSection } from './sections/inbox.config.js';
import { mcpSection } from './sections/mcp.config.js';
import { outboundSection } from './sections/outbound.config.js';
import { pacingSection } from './sections/pacing.config.js';
import { providerWebhooksSection } from './sections/provider-webhooks.config.js';
import { pushProvidersSection } from './sections/push-providers.config.js';
import { serverSection } from './sections/server.config.js';
import { signalsSection } from './sections/signals.config.js';
import { webhooksSection } from './sections/webhooks.config.js';
import { workerSection } from './sections/worker.config.js';
import { workflowsSection } from './sections/workflows.config.js';
import { smsProvidersSection } from './sections/sms-providers.config.js';
import { whatsappProvidersSection } from './sections/whatsapp-providers.config.js';
import { chatProvidersSection } from './sections/chat-providers.config.js';
import { segmentsSection } from './sections/segments.config.js';
import { unsubscribeSection } from './sections/unsubscribe.config.js';
import { templatesSection } from './sections/templates.config.js';
import { missingProductionSecrets } from './production-secrets.js';

/**
 * The one typed configuration object, built from the environment at boot. To add settings,
 * write a section in sections/ and list it here; nothing else reads process.env.
 */
const sections = {
  server: serverSection,
  database: databaseSection,
  auth: authSection,
  worker: workerSection,
  connectors: connectorsSection,
  pacing: pacingSection,
  signals: signalsSection,
  outbound: outboundSection,
  webhooks: webhooksSection,
  workflows: workflowsSection,
  inbox: inboxSection,
  emailProviders: emailProvidersSection,
  failover: failoverSection,
  extensions: extensionsSection,
  secrets: secretsSection,
  sms: smsProvidersSection,
  whatsapp: whatsappProvidersSection,
  chat: chatProvidersSection,
  providerWebhooks: providerWebhooksSection,
  mcp: mcpSection,
  pushProviders: pushProvidersSection,
  digest: digestSection,
  segments: segmentsSection,
  unsubscribe: unsubscribeSection,
  templates: templatesSection,
  observability: observabilitySection,
};

type Sections = typeof sections;
export type AppConfig = { readonly [K in keyof Sections]: ReturnType<Sections[K]['build']> };

const envSchema = z.object(Object.assign({}, ...Object.values(sections).map((s) => s.env)) as z.ZodRawShape);

/** Thrown when the environment is invalid; its message lists every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export interface LoadConfigOptions {
  /**
   * Refuse a production start without the secrets it signs with (production-secrets.ts). Only
   * `notifyd migrate`, which signs and serves nothing, turns it off.
   */
  requireSecrets?: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): AppConfig {
  // Read from the raw environment, so that it is listed with every other problem at once.
  const missing = options.requireSecrets === false ? [] : missingProductionSecrets(env);
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const raw = env[name];
      const got = raw === undefined ? '' : ` (got ${JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)})`;
      const shown = /KEY|SECRET|TOKEN|PASSWORD/.test(name) ? '' : got;
      return `${name} ${issue.message}${shown}`;
    });
    throw new ConfigError([...problems, ...missing]);
  }
  if (missing.length) throw new ConfigError(missing);
  const values = parsed.data as Record<string, unknown>;
  const config = Object.fromEntries(
    Object.entries(sections).map(([key, section]) => [key, (section.build as (e: unknown) => unknown)(values)]),
  );
  return Object.freeze(config) as AppConfig;
}

/** Every environment variable a section declares; each has a row in the README's configuration table (test/docs-promises). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);
