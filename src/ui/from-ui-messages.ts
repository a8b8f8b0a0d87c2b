import type { Approval, DeferredResults } from '../core/engine/deferred-types';
import { isArrayValue, isRecord } from '../core/kit/guards';
import type { Message, ToolCall } from '../core/contract/message';
import type { Part } from '../core/contract/part';
import type { CheckedUIMessage, UIPart } from './ui-message-parts';
import {
  approvalOf,
  checkMessage,
  deniedResult,
  isToolPart,
  outputText,
  stepsOf,
  textOf,
  toolCallOf,
  userContent,
} from './ui-message-parts';
import { UIMessageError } from './ui-message-error';

/** The paused run a client's decisions resume. */
export interface ChatResume {
  /** The approvals and external results the client sent, keyed by call id. */
  results: { approvals: Record<string, Approval>; external: Record<string, string> };
  /** The paused run's stored id, from the message metadata (resumes through the run store). */
  runId?: string;
  /** The paused assistant message's id: the continuation streams into the same message. */
  messageId: string;
}

/** A chat request's `UIMessage[]` as a Golem run's input. */
export interface ChatTurn {
  /** The conversation before the new input, as run history (for a resume: up to the pause). */
  history: Message[];
  /** The new user message's text (`''` when the request resumes a paused run). */
  prompt: string;
  /** The new user message's files (images, documents, audio). */
  parts: Part[];
  /** Present when the last message is a paused assistant message carrying the client's decisions. */
  resume?: ChatResume;
}

/**
 * Reads the `UIMessage[]` a chat client sends (`useChat`'s request body `messages`) into a run's
 * input, validated: the last message is either a user message (the new prompt, its files as
 * parts) or the assistant message of a paused run whose tool parts carry the client's decisions
 * (`approval-responded`) and external results. Reasoning, sources and data parts are not
 * replayed; system messages are refused (set instructions on the agent). Throws `UIMessageError`
 * naming the culprit: not an array, an unknown part type, a tool part in a state that cannot be
 * history, nothing to answer.
 */
export function fromUIMessages(messages: unknown): ChatTurn {
  if (!isArrayValue(messages))
    throw new UIMessageError('messages', 'expected an array of UI messages');
  if (messages.length === 0) throw new UIMessageError('messages', 'there is no message to answer');
  const checked = messages.map((m, i) => checkMessage(m, `messages[${i}]`));
  const last = checked[checked.length - 1] as CheckedUIMessage;
  const earlier = checked.slice(0, -1);
  const history = earlier.flatMap((m) => historyOf(m, undefined));
  if (last.role === 'user') {
    const { text, parts } = userContent(last);
    if (text.trim() === '' && parts.length === 0)
      throw new UIMessageError(last.path, 'the new user message has no text and no files');
    return { history, prompt: text, parts };
  }
  if (last.role === 'system') throw systemRefused(last);
  const decisions: Decisions = {
    approvals: {},
    external: {},
    pendingExternal: new Set(pendingExternal(last)),
  };
  history.push(...historyOf(last, decisions));
  const count = Object.keys(decisions.approvals).length + Object.keys(decisions.external).length;
  if (count === 0)
    throw new UIMessageError(
      last.path,
      'the last message is an assistant message with no decision or result to resume with; send a user message',
    );
  const resume: ChatResume = {
    results: { approvals: decisions.approvals, external: decisions.external },
    messageId: last.id,
  };
  const runId = runIdOf(last);
  if (runId !== undefined) resume.runId = runId;
  return { history, prompt: '', parts: [], resume };
}

/** The call ids of the deferred results, by kind (the stream's continuation). Internal. */
export function settledCalls(results: DeferredResults & ChatResume['results']): {
  approved: string[];
  denied: string[];
  external: string[];
} {
  const entries = Object.entries(results.approvals);
  return {
    approved: entries.filter(([, a]) => a.approved).map(([id]) => id),
    denied: entries.filter(([, a]) => !a.approved).map(([id]) => id),
    external: Object.keys(results.external),
  };
}

interface Decisions {
  approvals: Record<string, Approval>;
  external: Record<string, string>;
  pendingExternal: ReadonlySet<string>;
}

function systemRefused(message: CheckedUIMessage): UIMessageError {
  return new UIMessageError(
    `${message.path}.role`,
    'system messages are not accepted from a client; set instructions on the agent',
  );
}

/** One UI message as history; `decisions` collects a final paused message's resolutions. */
function historyOf(message: CheckedUIMessage, decisions: Decisions | undefined): Message[] {
  if (message.role === 'system') throw systemRefused(message);
  if (message.role === 'user') {
    const { text, parts } = userContent(message);
    const user: Message = { role: 'user', content: text };
    if (parts.length > 0) user.parts = parts;
    return [user];
  }
  const out: Message[] = [];
  for (const step of stepsOf(message)) {
    const texts: string[] = [];
    const calls: ToolCall[] = [];
    const results: Message[] = [];
    for (const { part, path } of step) {
      if (part.type === 'text') texts.push(textOf(part, path));
      else if (isToolPart(part)) {
        const call = toolCallOf(part, path);
        calls.push(call);
        const result = resultOf(part, path, call, decisions);
        if (result !== undefined)
          results.push({ role: 'tool', content: result, toolCallId: call.id, toolName: call.name });
      }
    }
    const content = texts.join('');
    if (content === '' && calls.length === 0) continue;
    const assistant: Message = { role: 'assistant' };
    if (content !== '') assistant.content = content;
    if (calls.length > 0) assistant.toolCalls = calls;
    out.push(assistant, ...results);
  }
  return out;
}

/** A tool part's result text for history, or `undefined` for a call left unanswered. */
function resultOf(
  part: UIPart,
  path: string,
  call: { id: string },
  decisions: Decisions | undefined,
): string | undefined {
  const state = part.state;
  const external = decisions !== undefined && decisions.pendingExternal.has(call.id);
  switch (state) {
    case 'input-available':
      return undefined;
    case 'output-available':
      if (!external) return outputText(part.output, `${path}.output`);
      decisions.external[call.id] = outputText(part.output, `${path}.output`);
      return undefined;
    case 'output-error': {
      const errorText = typeof part.errorText === 'string' ? part.errorText : '';
      if (!external) return errorText;
      decisions.external[call.id] = errorText;
      return undefined;
    }
    case 'output-denied':
      return deniedResult(part);
    case 'approval-responded':
      if (decisions === undefined)
        throw new UIMessageError(
          path,
          `tool call "${call.id}" has an approval decision that was never resumed; it cannot be history`,
        );
      decisions.approvals[call.id] = approvalOf(part, path);
      return undefined;
    case 'approval-requested':
      throw new UIMessageError(
        path,
        `tool call "${call.id}" awaits an approval decision; answer it before sending a new message`,
      );
    case 'input-streaming':
      throw new UIMessageError(
        path,
        `tool call "${call.id}" is still streaming its arguments; it cannot be history`,
      );
    default:
      throw new UIMessageError(`${path}.state`, `unknown tool part state ${JSON.stringify(state)}`);
  }
}

function metadataRecord(message: CheckedUIMessage): Record<string, unknown> | undefined {
  const { metadata } = message;
  if (metadata === undefined || metadata === null) return undefined;
  if (!isRecord(metadata))
    throw new UIMessageError(`${message.path}.metadata`, 'message metadata must be an object');
  return metadata;
}

function pendingExternal(message: CheckedUIMessage): string[] {
  const pending = metadataRecord(message)?.pending;
  if (pending === undefined || pending === null) return [];
  const path = `${message.path}.metadata.pending`;
  if (!isRecord(pending)) throw new UIMessageError(path, 'pending must be an object or null');
  const external = pending.external ?? [];
  if (!isArrayValue(external) || !external.every((id) => typeof id === 'string'))
    throw new UIMessageError(`${path}.external`, 'pending.external must be an array of call ids');
  return external as string[];
}

function runIdOf(message: CheckedUIMessage): string | undefined {
  const runId = metadataRecord(message)?.runId;
  if (runId === undefined) return undefined;
  if (typeof runId !== 'string' || runId === '')
    throw new UIMessageError(`${message.path}.metadata.runId`, 'runId must be a non-empty string');
  return runId;
}
