import type { CapRow } from './caps.repository.js';
import type { CapDto } from './dto/cap.dto.js';

/** A cap as REST and MCP show it. */
export function presentCap(c: CapRow): CapDto {
  return {
    id: c.id,
    channel: c.channel,
    topic: c.topic,
    max_messages: c.maxMessages,
    window_seconds: c.windowSeconds,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
