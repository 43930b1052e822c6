import type { ChatBindingRow } from './chat-bindings.repository.js';
import type { ChatBindingListDto } from './dto/chat-binding.dto.js';

/** A project's chat bindings as the REST API and the MCP tools show them (ChatBindingsService.list). */
export function presentChatBindingList(
  projectId: string,
  list: { required: boolean; bindings: readonly ChatBindingRow[] },
): ChatBindingListDto {
  return {
    project_id: projectId,
    required: list.required,
    bindings: list.bindings.map((b) => ({
      channel: b.channel,
      chat: b.chat,
      created_at: new Date(b.createdAt).toISOString(),
    })),
  };
}
