import type { Message } from './message';
import type { Usage } from './usage';

/** One provider call's normalised output. */
export interface ModelResponse {
  /** The assistant message; tool calls decide the turn. */
  message: Message;
  usage: Usage;
  /** Provider finish reason, normalised to lower case where known (`stop`, `length`, `tool_calls`…). */
  finishReason?: string;
  /** The model that actually answered, when the provider says. */
  modelName?: string;
  /** The provider's id of this response (`chatcmpl-…`, `msg_…`, Gemini `responseId`), when it sends one. */
  responseId?: string;
}
