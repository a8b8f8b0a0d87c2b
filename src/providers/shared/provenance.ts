import type { ToolCall } from '../../core/contract/message';
import type { ThinkingBlock } from '../../core/contract/thinking';

/**
 * Which adapter produced a thinking block or a call signature, and which adapter a request is
 * encoded for: a provider id (the adapter's name in errors) and a model id.
 */
export interface ThinkingOrigin {
  readonly provider: string;
  readonly model?: string | undefined;
}

/** A copy of `block` stamped with `origin`. */
export function stampBlock(block: ThinkingBlock, origin: ThinkingOrigin): ThinkingBlock {
  const stamped: ThinkingBlock = { ...block, provider: origin.provider };
  if (origin.model !== undefined && origin.model !== '') stamped.model = origin.model;
  return stamped;
}

/** A copy of `call` with its signature's issuer recorded (when it has a signature). */
export function stampCall(call: ToolCall, origin: ThinkingOrigin): ToolCall {
  if (call.signature === undefined || call.signature === '') return { ...call };
  const stamped: ToolCall = { ...call, signatureProvider: origin.provider };
  if (origin.model !== undefined && origin.model !== '') stamped.signatureModel = origin.model;
  return stamped;
}

/**
 * Whether reasoning produced by `from` may be sent to `to`. Unstamped reasoning (no provider:
 * older stored histories) is trusted as `to`'s own. Otherwise provider and model must match;
 * Claude is one issuer wherever it runs, so Anthropic and Claude on Bedrock match when their
 * model ids name the same Claude model (`claude-sonnet-4-5-20250929` and
 * `us.anthropic.claude-sonnet-4-5-20250929-v1:0`). An origin without a model matches any model
 * of its issuer.
 */
export function replayableTo(from: Partial<ThinkingOrigin>, to: ThinkingOrigin): boolean {
  if (from.provider === undefined || from.provider === '') return true;
  const source = issuer(from.provider, from.model);
  const target = issuer(to.provider, to.model);
  if (source.family !== target.family) return false;
  return source.model === undefined || source.model === target.model;
}

/** Whether a block may be replayed to `to` (see {@link replayableTo}). */
export function blockReplayableTo(block: ThinkingBlock, to: ThinkingOrigin): boolean {
  return replayableTo({ provider: block.provider, model: block.model }, to);
}

/** Whether a call's signature may be replayed to `to` (see {@link replayableTo}). */
export function callSignatureReplayableTo(call: ToolCall, to: ThinkingOrigin): boolean {
  return replayableTo({ provider: call.signatureProvider, model: call.signatureModel }, to);
}

/** The signing family (`claude` for Claude on Anthropic or Bedrock) and the model it compares. */
function issuer(
  provider: string,
  model: string | undefined,
): { family: string; model: string | undefined } {
  const id = model === undefined || model === '' ? undefined : model;
  if (provider === 'anthropic')
    return { family: 'claude', model: id === undefined ? undefined : claudeModel(id) };
  if (provider === 'bedrock' && id !== undefined) {
    const claude = claudeModel(id);
    if (claude.startsWith('claude')) return { family: 'claude', model: claude };
  }
  return { family: provider, model: id };
}

/**
 * A Claude model id without its hosting decorations: a Bedrock ARN's path, the inference-profile
 * region prefix (`us.`, `eu.`, `global.`…), the `anthropic.` vendor prefix and the `-v1:0`
 * version suffix; Vertex's `@` date separator becomes `-`.
 */
function claudeModel(id: string): string {
  const tail = id.slice(id.lastIndexOf('/') + 1);
  return tail
    .replace(/^(?:[a-z]{2,8}\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace('@', '-');
}
