import type { CachePointBlock, ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import type { ResolvedCache } from '../../core/contract/cache';
import { planBreakpoints } from '../../core/contract/cache';
import type { Message } from '../../core/contract/message';
import type { ConverseConversation } from './messages';

/**
 * Inserts Converse `cachePoint` blocks (at most 4 per request; see `planBreakpoints`): after the
 * tools in `toolConfig.tools`, after the system blocks, and after the blocks of each chosen
 * message. One TTL for all of them keeps Bedrock's rule that TTLs never increase along the prompt.
 */
export function applyCachePoints(
  input: ConverseCommandInput,
  messages: readonly Message[],
  ends: ConverseConversation['ends'],
  cache: ResolvedCache | undefined,
): void {
  const tools = input.toolConfig?.tools ?? [];
  const system = input.system ?? [];
  const plan = planBreakpoints(messages, cache, {
    tools: tools.length > 0,
    instructions: system.length > 0,
  });
  const point = (): CachePointBlock =>
    cache?.ttl === undefined ? { type: 'default' } : { type: 'default', ttl: cache.ttl };
  if (plan.tools) tools.push({ cachePoint: point() });
  if (plan.instructions) system.push({ cachePoint: point() });
  // Later insertions first, so earlier positions in a shared turn stay valid.
  for (const index of [...plan.messages].sort((a, b) => b - a)) {
    const end = ends.get(index);
    if (end !== undefined) end.blocks.splice(end.last + 1, 0, { cachePoint: point() });
  }
}
