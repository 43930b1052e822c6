import { tooDeepMessage, tooDeepPath } from './nesting-depth.js';
import { nulCharacterMessage, nulCharacterPath } from './nul-characters.js';

/**
 * What every way in refuses in a request value before any DTO or schema sees it (the HTTP
 * validation pipe and MCP tool arguments alike): a NUL character (PostgreSQL stores none) and
 * nesting past MAX_NESTING_DEPTH (class-transformer and the render threads' structured clone
 * overflow the stack). The sentence naming the field and the fix, or undefined.
 * `name` stands for the whole value when the problem is the value itself (a path parameter).
 */
export function requestValueProblem(value: unknown, name?: string): string | undefined {
  const nul = nulCharacterPath(value);
  if (nul !== undefined) return nulCharacterMessage(name && nul === 'the value' ? name : nul);
  const deep = tooDeepPath(value);
  return deep === undefined ? undefined : tooDeepMessage(deep);
}
