import type { ResolvedCache } from '../../core/contract/cache';
import { planBreakpoints } from '../../core/contract/cache';
import type { Message } from '../../core/contract/message';
import type { WireAssistantBlock, WireCacheControl, WireRequest, WireUserBlock } from './wire';

/**
 * Puts `cache_control` breakpoints on the encoded body (at most 4, the API's limit; see
 * `planBreakpoints`): on the last tool, on the system prompt (then sent as one text block), and on
 * the last block of each chosen message. Thinking blocks cannot carry one; a message whose last
 * block is thinking gets none.
 */
export function applyCacheControl(
  body: WireRequest,
  messages: readonly Message[],
  lastBlocks: ReadonlyMap<number, WireUserBlock | WireAssistantBlock>,
  cache: ResolvedCache | undefined,
): void {
  const tools = body.tools ?? [];
  const plan = planBreakpoints(messages, cache, {
    tools: tools.length > 0,
    instructions: typeof body.system === 'string' && body.system !== '',
  });
  const control: WireCacheControl =
    cache?.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: cache.ttl };
  if (plan.tools) {
    const last = tools.length - 1;
    tools[last] = { ...tools[last], cache_control: { ...control } } as (typeof tools)[number];
  }
  if (plan.instructions && typeof body.system === 'string')
    body.system = [{ type: 'text', text: body.system, cache_control: { ...control } }];
  for (const index of plan.messages) {
    const block = lastBlocks.get(index);
    if (block === undefined || block.type === 'thinking' || block.type === 'redacted_thinking')
      continue;
    block.cache_control = { ...control };
  }
}
