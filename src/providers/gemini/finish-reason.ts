const CONTENT_FILTER = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * Normalises a Gemini `finishReason`. Gemini reports `STOP` even when it emitted function calls,
 * so `STOP` is `tool_calls` when the response has calls and `stop` otherwise; `MAX_TOKENS` is
 * `length`; the safety family (`SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`,
 * `IMAGE_SAFETY`, …) is `content_filter`; anything else is the raw value in lower case
 * (`malformed_function_call`, `language`, `other`, …).
 */
export function normaliseFinishReason(raw: string, hasToolCalls: boolean): string {
  if (raw === 'STOP') return hasToolCalls ? 'tool_calls' : 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  if (CONTENT_FILTER.has(raw)) return 'content_filter';
  return raw.toLowerCase();
}
