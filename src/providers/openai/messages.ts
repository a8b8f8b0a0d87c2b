import type { Message, ToolCall } from '../../core/contract/message';
import type { Part } from '../../core/contract/part';
import { mediaEssence } from '../../core/contract/part-media';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { PartLocation } from '../../core/contract/unsupported';
import { base64Of, checkPart, dataUrlOf, isInline, refusePart } from '../shared/parts';
import type { WireContentPart, WireMessage, WireToolCall } from './wire';

/**
 * Translates the conversation to chat-completions messages: system and tool messages keep their
 * roles; a user message with parts becomes a content array (text first, then the parts: images
 * as `image_url`, PDFs as `file`, WAV/MP3 audio as `input_audio`, see {@link wirePart}); an
 * assistant message sends its text and `tool_calls`. Thinking is never replayed (the
 * chat-completions API has no field for it). A message that cannot be encoded throws
 * a model `ConfigError` naming it, a part the API cannot take `UnsupportedPartError`; nothing is
 * dropped silently.
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
        throw modelConfigError(
          provider,
          `message ${index}: a tool result needs the toolCallId of the call it answers`,
        );
      return { role: 'tool', tool_call_id: message.toolCallId, content: text };
    default:
      throw modelConfigError(
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
    checkPart(provider, part, { message: index, part: j });
    content.push(wirePart(provider, part, { message: index, part: j }));
  });
  return content;
}

/**
 * One part as a content part: an image as `image_url` (inline bytes as a `data:` URL); a PDF as
 * `file` with `file_data` (a `data:` URL) and a `filename`; WAV or MP3 audio as `input_audio`.
 * Anything else — other document types, document or audio URLs, other audio formats — is an
 * `UnsupportedPartError` (chat completions takes only these).
 */
function wirePart(provider: string, part: Part, at: PartLocation): WireContentPart {
  if (part.kind === 'image')
    return {
      type: 'image_url',
      image_url: {
        url: isInline(part) ? dataUrlOf(part.mediaType ?? '', part.data) : (part.url ?? ''),
      },
    };
  if (!isInline(part))
    throw refusePart(
      provider,
      part,
      at,
      `chat completions takes ${part.kind} parts only as inline bytes, not by URL; send the bytes (${part.kind === 'audio' ? 'audioData' : 'documentData'}) or use golem/providers/openai-responses, which fetches file URLs`,
    );
  const type = mediaEssence(part.mediaType ?? '');
  if (part.kind === 'document') {
    if (type !== 'application/pdf')
      throw refusePart(
        provider,
        part,
        at,
        'chat completions takes only PDF files; send text as message content, or use golem/providers/openai-responses for other file types',
      );
    return {
      type: 'file',
      file: { filename: part.name ?? 'document.pdf', file_data: dataUrlOf(type, part.data) },
    };
  }
  const format = type === 'audio/wav' ? 'wav' : type === 'audio/mpeg' ? 'mp3' : undefined;
  if (format === undefined)
    throw refusePart(provider, part, at, 'chat completions takes audio only as WAV or MP3');
  return { type: 'input_audio', input_audio: { data: base64Of(part.data), format } };
}

function toWireCall(call: ToolCall): WireToolCall {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.args.trim() === '' ? '{}' : call.args },
  };
}
