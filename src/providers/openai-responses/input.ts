import type { CompactionItem, Message } from '../../core/contract/message';
import type { Part } from '../../core/contract/part';
import { mediaEssence } from '../../core/contract/part-media';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ThinkingBlock } from '../../core/contract/thinking';
import type { PartLocation } from '../../core/contract/unsupported';
import { checkPart, dataUrlOf, isInline, refusePart } from '../shared/parts';
import { blockReplayableTo, replayableTo, type ThinkingOrigin } from '../shared/provenance';
import { PROVIDER } from './options';
import type {
  WireCompactionItem,
  WireInputContent,
  WireInputItem,
  WireReasoningItem,
} from './wire';

/** The conversation in the API's shape. */
export interface EncodedInput {
  /** The system messages, joined with a blank line (`instructions`). */
  instructions: string | undefined;
  input: WireInputItem[];
  /** The response the input continues server-side (`previous_response_id`), in `auto` mode. */
  previousResponseId: string | undefined;
}

/** How the conversation is encoded. */
export interface InputMode {
  /** Who the request is for: reasoning is replayed only to its producer. */
  readonly target: ThinkingOrigin;
  /** Continue from the last response this API produced (`previousResponseId: 'auto'`). */
  readonly chain: boolean;
  /** Responses are stored: reasoning without encrypted content can be replayed by id. */
  readonly store: boolean;
}

/**
 * Translates the conversation. System messages (wherever they are) become `instructions`, sent on
 * every request (the API does not carry them over `previous_response_id`). User messages become
 * message items (text alone as a string, else `input_text` then the parts, see
 * {@link inputContent}); assistant messages become their replayable reasoning items, their text
 * as an assistant message and their calls as `function_call` items; tool results become
 * `function_call_output` items. Hosted tool calls and citations stay in the evidence only. In
 * chain mode the last assistant message with a `resp_…` `responseId` is the
 * `previous_response_id` and only the messages after it are sent. The latest compaction item this
 * adapter issued for the target model (`Message.compaction`) is sent right before its message's
 * items; statelessly, the items before it are dropped (it stands for them — OpenAI's compaction
 * guide); in chain mode nothing is pruned. Other messages' compactions are never sent.
 */
export function encodeInput(messages: readonly Message[], mode: InputMode): EncodedInput {
  const system: string[] = [];
  let from = 0;
  let previousResponseId: string | undefined;
  if (mode.chain)
    for (let i = messages.length - 1; i >= 0; i--) {
      const id = messages[i]?.responseId;
      if (messages[i]?.role === 'assistant' && id !== undefined && id.startsWith('resp_')) {
        previousResponseId = id;
        from = i + 1;
        break;
      }
    }
  const compacted = latestCompaction(messages, from, mode.target);
  // Stateless: the compaction item stands for everything before it. Chained: never prune.
  if (compacted !== undefined && !mode.chain) from = compacted;
  const input: WireInputItem[] = [];
  messages.forEach((message, i) => {
    if (message.role === 'system') {
      if (message.content !== undefined && message.content !== '') system.push(message.content);
      return;
    }
    if (i < from) return;
    if (i === compacted && message.compaction !== undefined)
      input.push(compactionItem(message.compaction));
    if (message.role === 'user') input.push(userItem(message, i));
    else if (message.role === 'assistant') input.push(...assistantItems(message, mode));
    else if ((message.role as string) === 'tool') {
      if (message.toolCallId === undefined || message.toolCallId === '')
        throw modelConfigError(
          PROVIDER,
          `message ${i}: a tool result needs the toolCallId of the call it answers`,
        );
      input.push({
        type: 'function_call_output',
        call_id: message.toolCallId,
        output: message.content ?? '',
      });
    } else
      throw modelConfigError(
        PROVIDER,
        `message ${i}: unknown role ${JSON.stringify(message.role)}`,
      );
  });
  return {
    instructions: system.length === 0 ? undefined : system.join('\n\n'),
    input,
    previousResponseId,
  };
}

/**
 * The index of the last assistant message at or after `from` whose compaction this adapter
 * issued for the target model (see `replayableTo`), or `undefined`. Compactions of other
 * providers or models are never sent: the full history goes instead.
 */
function latestCompaction(
  messages: readonly Message[],
  from: number,
  target: ThinkingOrigin,
): number | undefined {
  for (let i = messages.length - 1; i >= from; i--) {
    const message = messages[i];
    const compaction = message?.compaction;
    if (message?.role !== 'assistant' || compaction === undefined) continue;
    if (compaction.provider !== target.provider || compaction.data === '') continue;
    if (replayableTo({ provider: compaction.provider, model: compaction.model }, target)) return i;
  }
  return undefined;
}

function compactionItem(compaction: CompactionItem): WireCompactionItem {
  const item: WireCompactionItem = { type: 'compaction', encrypted_content: compaction.data };
  if (compaction.id !== undefined && compaction.id !== '') item.id = compaction.id;
  return item;
}

function userItem(message: Message, index: number): WireInputItem {
  const text = message.content ?? '';
  const parts = message.parts ?? [];
  if (parts.length === 0) return { role: 'user', content: text };
  const content: WireInputContent[] = text === '' ? [] : [{ type: 'input_text', text }];
  parts.forEach((part, j) => content.push(inputContent(part, { message: index, part: j })));
  return { role: 'user', content };
}

/**
 * A part as input content: an image as `input_image` (`detail: auto`; inline bytes as a `data:`
 * URL); a document as `input_file`, inline as `file_data` (a `data:` URL) with a `filename`
 * (the part's `name`, else `document` with an extension from its type), by URL as `file_url`.
 * Audio is an `UnsupportedPartError`: the Responses API takes no audio input.
 */
export function inputContent(part: Part, at: PartLocation): WireInputContent {
  checkPart(PROVIDER, part, at);
  if (part.kind === 'image')
    return {
      type: 'input_image',
      image_url: isInline(part) ? dataUrlOf(part.mediaType ?? '', part.data) : (part.url ?? ''),
      detail: 'auto',
    };
  if (part.kind === 'audio')
    throw refusePart(
      PROVIDER,
      part,
      at,
      'the Responses API takes no audio input; use golem/providers/openai (input_audio, WAV or MP3) or transcribe it first',
    );
  if (!isInline(part)) {
    const byUrl: WireInputContent = { type: 'input_file', file_url: part.url ?? '' };
    if (part.name !== undefined) byUrl.filename = part.name;
    return byUrl;
  }
  const type = mediaEssence(part.mediaType ?? '');
  return {
    type: 'input_file',
    filename: part.name ?? `document.${EXTENSIONS[type] ?? 'bin'}`,
    file_data: dataUrlOf(type, part.data),
  };
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/**
 * Reasoning first (only blocks this adapter produced for the same model, with their item id and
 * encrypted content — or, when responses are stored, their id alone), then the text, then the
 * calls. Reasoning is left out of a message with neither text nor calls: the API wants every
 * reasoning item followed by the output it led to.
 */
function assistantItems(message: Message, mode: InputMode): WireInputItem[] {
  const items: WireInputItem[] = [];
  const text = message.content ?? '';
  const calls = message.toolCalls ?? [];
  if (text !== '' || calls.length > 0)
    for (const block of message.thinking ?? []) {
      const item = reasoningItem(block, mode);
      if (item !== undefined) items.push(item);
    }
  if (text !== '') items.push({ role: 'assistant', content: text });
  for (const call of calls)
    items.push({
      type: 'function_call',
      call_id: call.id,
      name: call.name,
      arguments: call.args.trim() === '' ? '{}' : call.args,
    });
  return items;
}

function reasoningItem(block: ThinkingBlock, mode: InputMode): WireReasoningItem | undefined {
  if (block.id === undefined || block.id === '' || !blockReplayableTo(block, mode.target))
    return undefined;
  const encrypted = block.signature !== undefined && block.signature !== '';
  if (!encrypted && !mode.store) return undefined;
  const item: WireReasoningItem = {
    type: 'reasoning',
    id: block.id,
    summary:
      block.text === undefined || block.text === ''
        ? []
        : [{ type: 'summary_text', text: block.text }],
  };
  if (encrypted) item.encrypted_content = block.signature;
  return item;
}
