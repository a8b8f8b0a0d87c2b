import { isRecord } from '../../core/kit/guards';
import { HistoryFormatError } from '../../core/errors/history-error';
import type { Message } from '../../core/contract/message';
import {
  blockReplayableTo,
  callSignatureReplayableTo,
  type ThinkingOrigin,
} from '../shared/provenance';
import { checkInlineSize, mediaPart } from './media';
import type { GeminiContent, GeminiPart } from './wire';

/** The conversation in Gemini's shape. */
export interface GeminiConversation {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
}

/**
 * Translates messages: system messages (wherever they are) become `systemInstruction` parts;
 * user messages become `user` contents (text first, then images, documents and audio: `fileData`
 * for URLs, `inlineData` for bytes, see `mediaPart`; inline data capped at 20 MB a request); assistant messages become `model` contents (see
 * {@link assistantParts}); tool results become `functionResponse` parts of a `user` content,
 * `{name, id, response: {result: <text>}}`. Consecutive contents of the same role are merged.
 * `target` (the adapter's provider and model) decides which reasoning is replayed.
 */
export function toGeminiConversation(
  messages: readonly Message[],
  target: ThinkingOrigin,
): GeminiConversation {
  checkInlineSize(target.provider, messages);
  const system: { text: string }[] = [];
  const contents: GeminiContent[] = [];
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case 'system':
        if (message.content !== undefined && message.content !== '')
          system.push({ text: message.content });
        break;
      case 'user':
        push('user', userParts(target.provider, message, index));
        break;
      case 'assistant':
        push('model', assistantParts(message, index, target));
        break;
      case 'tool':
        push('user', [toolResultPart(message, index, messages)]);
        break;
      default:
        throw new HistoryFormatError(index, 'role', `"${String(message.role)}" is unknown`);
    }
  }
  const conversation: GeminiConversation = { contents };
  if (system.length > 0) conversation.systemInstruction = { parts: system };
  return conversation;
}

function userParts(provider: string, message: Message, index: number): GeminiPart[] {
  const media = message.parts ?? [];
  const parts: GeminiPart[] = [];
  const text = message.content ?? '';
  if (text !== '' || media.length === 0) parts.push({ text });
  media.forEach((part, j) => parts.push(mediaPart(provider, part, { message: index, part: j })));
  return parts;
}

/**
 * Google's documented stand-in `thoughtSignature` for a function call that has no signature
 * Gemini issued (history from another model or provider, or hand-built): it skips the check
 * Gemini 3 makes on the first call of each model step.
 */
export const SKIP_SIGNATURE_VALIDATOR = 'skip_thought_signature_validator';

/**
 * A `model` content's parts, in this order: thinking blocks with text as thought parts
 * (`{text, thought: true, thoughtSignature?}`); the text; signature-only blocks as
 * `{text: '', thoughtSignature}` (Gemini sends such a part after the text, see the adapter
 * guide); the tool calls as `{functionCall: {name, args, id}, thoughtSignature?}` with
 * `ToolCall.signature` replayed. Redacted blocks cannot be replayed to Gemini: they are skipped
 * here and stay in the evidence (spec §20.1). Reasoning from another issuer than `target`
 * (another provider or model) is left out, blocks and call signatures alike; when the message's
 * first call is left without a signature it gets {@link SKIP_SIGNATURE_VALIDATOR}.
 */
export function assistantParts(
  message: Message,
  index: number,
  target: ThinkingOrigin,
): GeminiPart[] {
  const parts: GeminiPart[] = [];
  const trailing: GeminiPart[] = [];
  for (const block of message.thinking ?? []) {
    if (block.redacted !== undefined && block.redacted !== '') continue;
    if (!blockReplayableTo(block, target)) continue;
    const signature =
      block.signature !== undefined && block.signature !== '' ? block.signature : '';
    if (block.text !== undefined && block.text !== '') {
      const part: GeminiPart = { text: block.text, thought: true };
      if (signature !== '') part.thoughtSignature = signature;
      parts.push(part);
    } else if (signature !== '') trailing.push({ text: '', thoughtSignature: signature });
  }
  if (message.content !== undefined && message.content !== '')
    parts.push({ text: message.content });
  parts.push(...trailing);
  for (const [j, call] of (message.toolCalls ?? []).entries()) {
    const part: GeminiPart = {
      functionCall: { name: call.name, args: parseArgs(call.args, index, j), id: call.id },
    };
    if (
      call.signature !== undefined &&
      call.signature !== '' &&
      callSignatureReplayableTo(call, target)
    )
      part.thoughtSignature = call.signature;
    else if (j === 0) part.thoughtSignature = SKIP_SIGNATURE_VALIDATOR;
    parts.push(part);
  }
  return parts;
}

function parseArgs(args: string, index: number, j: number): Record<string, unknown> {
  if (args.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch (cause) {
    throw new HistoryFormatError(index, `toolCalls[${j}].args`, 'is not valid JSON', { cause });
  }
  if (!isRecord(parsed))
    throw new HistoryFormatError(
      index,
      `toolCalls[${j}].args`,
      'must be a JSON object: Gemini function calls take an object',
    );
  return parsed;
}

function toolResultPart(message: Message, index: number, messages: readonly Message[]): GeminiPart {
  const id =
    message.toolCallId !== undefined && message.toolCallId !== '' ? message.toolCallId : '';
  let name = message.toolName ?? '';
  if (name === '' && id !== '') {
    for (const earlier of messages.slice(0, index))
      for (const call of earlier.toolCalls ?? []) if (call.id === id) name = call.name;
  }
  if (name === '')
    throw new HistoryFormatError(
      index,
      'toolName',
      'is required: Gemini correlates function responses by tool name',
    );
  const response = { result: message.content ?? '' };
  return { functionResponse: id === '' ? { name, response } : { name, id, response } };
}
