import type { PushTokenDto } from './dto/push-token.dto.js';
import type { PushTokenRow } from '../domain/push-token.types.js';

/** A device as the API shows it (notifyd's fields; the web push keys are not echoed back). */
export function presentPushToken(row: PushTokenRow): PushTokenDto {
  return {
    id: row.id,
    token: row.token,
    platform: row.platform,
    device_name: row.deviceName,
    endpoint: row.endpoint,
    expiration_time: row.expirationTime,
    user_agent: row.userAgent,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt.toISOString(),
  };
}
