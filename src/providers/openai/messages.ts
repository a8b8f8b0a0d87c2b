import type { Message, ToolCall } from '../../model/message';
import type { Part } from '../../model/part';
import { partProblem } from '../../model/part';
import { ModelConfigError } from '../../model/provider-errors';
import type { WireContentPart, WireMessage, WireToolCall } from './wire';

/**
 * Translates the conversation to chat-completions messages: system and tool messages keep their
 * roles; a user message with parts becomes a content array (text first, then `image_url` parts, an
 * inline image as a `data:` URL); an assistant message sends its text and `tool_calls`. Thinking
 * is never replayed (the chat-completions API has no field for it). A message that cannot be
 * encoded throws `ModelConfigError` naming it; nothing is dropped silently.
 */
export function toWireMessages(provider: string, messages: readonly Message[]): WireMessage[] {
  return messages.map((message, index) => toWireMessage(provider, message, index));
}

function toWireMessage(provider: string, message: Message, index: number): WireMessage {
  const text = message.content ?? '';
  switch (message.role) {
    case 'system':
      return { role: 'system', content: text };
    case 'user':
      if (message.parts === undefined || message.parts.length === 0)
        return { role: 'user', content: text };
      return { role: 'user', content: userContent(provider, text, message.parts, index) };
    case 'assistant': {
      const wire: WireMessage = { role: 'assistant' };
      const calls = message.toolCalls ?? [];
      if (text !== '' || calls.length === 0) wire.content = text;
      if (calls.length > 0) wire.tool_calls = calls.map(toWireCall);
      return wire;
    }
    case 'tool':
      if (message.toolCallId === undefined || message.toolCallId === '')
        throw new ModelConfigError(
          provider,
          `message ${index}: a tool result needs the toolCallId of the call it answers`,
        );
      return { role: 'tool', tool_call_id: message.toolCallId, content: text };
    default:
      throw new ModelConfigError(
        provider,
        `message ${index}: unknown role ${JSON.stringify(message.role)}`,
      );
  }
}

function userContent(
  provider: string,
  text: string,
  parts: readonly Part[],
  index: number,
): WireContentPart[] {
  const content: WireContentPart[] = text === '' ? [] : [{ type: 'text', text }];
  parts.forEach((part, j) => {
    const problem = partProblem(part);
    if (problem !== undefined)
      throw new ModelConfigError(provider, `message ${index} part ${j}: ${problem}`);
    const url =
      part.data !== undefined && part.data.length > 0
        ? `data:${part.mediaType ?? ''};base64,${base64(part.data)}`
        : (part.url ?? '');
    content.push({ type: 'image_url', image_url: { url } });
  });
  return content;
}

function toWireCall(call: ToolCall): WireToolCall {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.args.trim() === '' ? '{}' : call.args },
  };
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
