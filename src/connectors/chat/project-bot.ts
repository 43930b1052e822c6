import type { AppConfig } from '../../config/app-config.js';
import type { ProjectSettingsSpec } from '../connector.js';

/** The chat providers whose instance bot a project may replace with its own (per-project providers). */
type BotProvider = 'slack' | 'telegram';

/** A project's own bot: one setting, `bot_token`, required, secret and checked against the provider's token form. */
export function botTokenSettings(pattern: RegExp, hint: string): ProjectSettingsSpec {
  return { fields: { bot_token: { required: true, secret: true, pattern, hint } } };
}

/** The instance's settings with the project's bot token in place of the provider's instance-wide one. */
export function withProjectBot(
  config: AppConfig,
  provider: BotProvider,
  s: Readonly<Record<string, string>>,
): AppConfig {
  const { chat } = config;
  return { ...config, chat: { ...chat, [provider]: { ...chat[provider], botToken: s.bot_token } } };
}
