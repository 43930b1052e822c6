import type { ChannelStatus } from './channel-report.service.js';
import type { ChannelStatusDto } from './dto/channel-report.dto.js';

/** One channel's status as the API and the MCP channels tool both show it (snake_case fields). */
export function channelStatusView(s: ChannelStatus): ChannelStatusDto {
  return {
    allowed: s.allowed,
    configured: s.configured,
    provider: s.provider,
    own_account: s.ownAccount,
    fallback_provider: s.fallbackProvider,
    reason: s.reason,
  };
}
