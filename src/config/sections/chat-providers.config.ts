import { defineSection } from '../define-section.js';
import { envBool, envList, envString, envUrl } from '../env-helpers.js';

/** A Telegram bot token from @BotFather; per-project bots are checked against the same form. */
export const TELEGRAM_BOT_TOKEN_PATTERN = /^\d{3,20}:[A-Za-z0-9_-]{30,}$/;
/** A Slack bot token (xoxb-…); per-project bots are checked against the same form. */
export const SLACK_BOT_TOKEN_PATTERN = /^xox[a-z]-[A-Za-z0-9-]+$/;

const apiBase = (example: string) =>
  envUrl({ protocols: ['http', 'https'], hint: `must be an http(s) URL such as ${example}` });

/**
 * Chat providers (src/connectors/chat/): Telegram Bot API, Slack (incoming webhooks or
 * chat.postMessage) and Discord webhooks. Webhook URLs come from callers, so besides the SSRF
 * guard they must be on one of the provider's own hosts: notifyd is not a general POST relay.
 */
export const chatProvidersSection = defineSection(
  {
    TELEGRAM_BOT_TOKEN: envString({
      pattern: TELEGRAM_BOT_TOKEN_PATTERN,
      hint: 'must be a bot token from @BotFather (123456:ABC…)',
    }),
    TELEGRAM_API_BASE: apiBase('https://api.telegram.org'),
    /** Bot token (xoxb-…) for channel ids; incoming-webhook URLs need no token. */
    SLACK_BOT_TOKEN: envString({ pattern: SLACK_BOT_TOKEN_PATTERN, hint: 'must be a Slack bot token (xoxb-…)' }),
    SLACK_API_BASE: apiBase('https://slack.com/api'),
    /** Hosts a Slack incoming-webhook URL may point at (default hooks.slack.com). */
    SLACK_WEBHOOK_HOSTS: envList(),
    /** Hosts a Discord webhook URL may point at (default discord.com and its aliases). */
    DISCORD_WEBHOOK_HOSTS: envList(),
    /**
     * true (default): the instance-wide Telegram and Slack bots post only to chats an operator
     * bound to the sending project (PUT /v1/admin/projects/:id/chat-bindings/:channel). false
     * lets every project reach every chat the bots can: only for single-tenant installs.
     */
    CHAT_BINDINGS_REQUIRED: envBool(true),
  },
  (env) => ({
    telegram: {
      botToken: env.TELEGRAM_BOT_TOKEN,
      apiBase: (env.TELEGRAM_API_BASE ?? 'https://api.telegram.org').replace(/\/+$/, ''),
    },
    slack: {
      botToken: env.SLACK_BOT_TOKEN,
      apiBase: (env.SLACK_API_BASE ?? 'https://slack.com/api').replace(/\/+$/, ''),
      webhookHosts: (env.SLACK_WEBHOOK_HOSTS ?? ['hooks.slack.com']).map((h) => h.toLowerCase()),
    },
    bindingsRequired: env.CHAT_BINDINGS_REQUIRED,
    discord: {
      webhookHosts: (
        env.DISCORD_WEBHOOK_HOSTS ?? ['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']
      ).map((h) => h.toLowerCase()),
    },
  }),
);

export type ChatProvidersConfig = ReturnType<typeof chatProvidersSection.build>;
