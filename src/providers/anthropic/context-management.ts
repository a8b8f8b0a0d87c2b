import { isRecord } from '../../core/kit/guards';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ProviderCompactionSettings } from '../../core/contract/request';
import type { ContextEdit } from '../../core/contract/response';
import { isIntegerAtLeast, PROVIDER } from './options';
import type { WireContextManagement, WireClearToolUsesEdit } from './wire';

/** The beta that enables `context_management` on the Messages API. */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';

/** The tool-result clearing strategy `settings.compaction` maps to. */
export const CLEAR_TOOL_USES = 'clear_tool_uses_20250919';

function fail(message: string): never {
  throw modelConfigError(PROVIDER, message);
}

/**
 * `settings.compaction` as the request's `context_management`: one `clear_tool_uses_20250919`
 * edit — `trigger` from `triggerTokens`, `keep` from `keepToolUses`, `clear_at_least` from
 * `clearAtLeastTokens`, `exclude_tools`, `clear_tool_inputs`; unset fields are left to the API's
 * defaults. Validated here (a model `ConfigError`, nothing sent): token counts are positive
 * integers, `keepToolUses` an integer >= 0, `excludeTools` an array of non-empty strings.
 */
export function contextManagementOf(value: unknown): WireContextManagement | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) fail('`settings.compaction` must be an object with `triggerTokens`');
  const settings = value as Partial<ProviderCompactionSettings>;
  if (!isIntegerAtLeast(settings.triggerTokens, 1))
    fail('`settings.compaction.triggerTokens` must be a positive integer');
  const edit: WireClearToolUsesEdit = {
    type: CLEAR_TOOL_USES,
    trigger: { type: 'input_tokens', value: settings.triggerTokens },
  };
  if (settings.keepToolUses !== undefined) {
    if (!isIntegerAtLeast(settings.keepToolUses, 0))
      fail('`settings.compaction.keepToolUses` must be an integer >= 0');
    edit.keep = { type: 'tool_uses', value: settings.keepToolUses };
  }
  if (settings.clearAtLeastTokens !== undefined) {
    if (!isIntegerAtLeast(settings.clearAtLeastTokens, 1))
      fail('`settings.compaction.clearAtLeastTokens` must be a positive integer');
    edit.clear_at_least = { type: 'input_tokens', value: settings.clearAtLeastTokens };
  }
  const exclude: unknown = settings.excludeTools;
  if (exclude !== undefined) {
    if (!Array.isArray(exclude) || exclude.some((name) => typeof name !== 'string' || name === ''))
      fail('`settings.compaction.excludeTools` must be an array of tool names');
    if (exclude.length > 0) edit.exclude_tools = [...(exclude as string[])];
  }
  if (settings.clearToolInputs !== undefined) {
    if (typeof settings.clearToolInputs !== 'boolean')
      fail('`settings.compaction.clearToolInputs` must be a boolean');
    edit.clear_tool_inputs = settings.clearToolInputs;
  }
  return { edits: [edit] };
}

/**
 * The edits a response's `context_management.applied_edits` reports (the non-streamed message,
 * or the stream's `message_start` / `message_delta`). Evidence only, so it is read leniently:
 * a field that is not the documented shape is ignored rather than failing an otherwise good
 * response — a missing or malformed `context_management` gives `undefined`, an entry that is not
 * an object with a string `type` is skipped, and a count that is not an integer >= 0 is left
 * out. `clear_tool_uses_*` maps to `cleared-tool-uses`, `clear_thinking_*` to
 * `cleared-thinking`, `compact_*` to `compacted`; other types are skipped.
 */
export function readContextEdits(value: unknown): ContextEdit[] | undefined {
  if (!isRecord(value) || !Array.isArray(value.applied_edits)) return undefined;
  const edits: ContextEdit[] = [];
  for (const entry of value.applied_edits as unknown[]) {
    if (!isRecord(entry) || typeof entry.type !== 'string') continue;
    const kind = kindOf(entry.type);
    if (kind === undefined) continue;
    const edit: ContextEdit = { kind, type: entry.type };
    const uses = count(entry.cleared_tool_uses);
    if (uses !== undefined) edit.clearedToolUses = uses;
    const turns = count(entry.cleared_thinking_turns);
    if (turns !== undefined) edit.clearedThinkingTurns = turns;
    const tokens = count(entry.cleared_input_tokens);
    if (tokens !== undefined) edit.clearedInputTokens = tokens;
    edits.push(edit);
  }
  return edits.length > 0 ? edits : undefined;
}

function kindOf(type: string): ContextEdit['kind'] | undefined {
  if (type.startsWith('clear_tool_uses_')) return 'cleared-tool-uses';
  if (type.startsWith('clear_thinking_')) return 'cleared-thinking';
  if (type.startsWith('compact_')) return 'compacted';
  return undefined;
}

function count(value: unknown): number | undefined {
  return isIntegerAtLeast(value, 0) ? value : undefined;
}
