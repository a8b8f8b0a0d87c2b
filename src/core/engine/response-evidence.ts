import { readEvidence } from '../codec/codec-evidence';
import { ModelResponseError } from '../errors/errors';
import { HistoryFormatError } from '../errors/history-error';
import type { Message } from '../contract/message';

/**
 * The provider evidence of a model's message, validated and copied: `hostedToolCalls`,
 * `citations` and `responseId` (the same rules as the durable codec: empty values dropped,
 * wrongly typed ones refused). A malformed field throws `ModelResponseError` carrying `raw`.
 */
export function normaliseEvidence(
  message: Record<string, unknown>,
  raw: unknown,
): Pick<Message, 'hostedToolCalls' | 'citations' | 'responseId'> {
  const evidence: Message = { role: 'assistant' };
  try {
    readEvidence(evidence, message, 0);
  } catch (error) {
    if (!HistoryFormatError.is(error)) throw error;
    throw new ModelResponseError(`${error.field} ${error.problem}`, raw);
  }
  const { role: _role, ...fields } = evidence;
  return fields;
}
