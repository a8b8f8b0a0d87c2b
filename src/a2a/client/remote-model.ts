import {
  emptyUsage,
  type DeltaHandler,
  type GenerateOptions,
  type Message as GolemMessage,
  type ModelRequest,
  type ModelResponse,
  type Part as GolemPart,
  type StreamingModel,
} from '../../core/index';
import { isRecord } from '../../core/kit/guards';
import { A2AProtocolError } from '../a2a-error';
import { A2A_ERROR_CODES, TASK_STATES, type Part, type TaskState } from '../wire-types';
import type { A2AConnection } from './connection-types';
import { peerText } from './failures';
import {
  endedText,
  followTask,
  needsInput,
  outcomeText,
  statusText,
  type Outcome,
} from './task-outcome';

/** Marks the `responseId` of an assistant message that came from a remote A2A agent. */
const PREFIX = 'a2a:';

/** Where a conversation with the remote agent stands, kept in the reply's `responseId`. */
interface Continuation {
  readonly contextId: string;
  readonly taskId: string;
  readonly state: TaskState;
}

function continuationOf(message: GolemMessage): Continuation | undefined {
  const id = message.responseId;
  if (message.role !== 'assistant' || typeof id !== 'string' || !id.startsWith(PREFIX)) {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(id.slice(PREFIX.length));
    if (
      isRecord(value) &&
      typeof value.contextId === 'string' &&
      typeof value.taskId === 'string' &&
      TASK_STATES.includes(value.state as TaskState)
    ) {
      return { contextId: value.contextId, taskId: value.taskId, state: value.state as TaskState };
    }
  } catch {
    // not ours after all: start afresh
  }
  return undefined;
}

/** The text and media of a golem message as A2A parts. */
function partsOf(message: GolemMessage): Part[] {
  const parts: Part[] = [];
  if (typeof message.content === 'string' && message.content !== '') {
    parts.push({ text: message.content });
  }
  for (const part of message.parts ?? []) parts.push(mediaPart(part));
  return parts;
}

function mediaPart(part: GolemPart): Part {
  const common = {
    ...(part.mediaType !== undefined && { mediaType: part.mediaType }),
    ...(part.name !== undefined && { filename: part.name }),
  };
  if (part.url !== undefined) return { url: part.url, ...common };
  return { raw: Buffer.from(part.data ?? new Uint8Array()).toString('base64'), ...common };
}

/**
 * What to send the remote agent for `messages`: after its last reply, the new user messages; at
 * the start (a handoff, a first run), the conversation's user and assistant texts as a transcript
 * — or the one user message alone. Tool traffic and system messages stay home.
 */
export function outgoing(messages: readonly GolemMessage[]): {
  readonly parts: Part[];
  readonly continuation: Continuation | undefined;
} {
  let at = -1;
  let continuation: Continuation | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    continuation = continuationOf(messages[i] as GolemMessage);
    if (continuation !== undefined) {
      at = i;
      break;
    }
  }
  const after = messages.slice(at + 1);
  const users = after.filter((m) => m.role === 'user');
  const spoken = after.filter(
    (m) =>
      (m.role === 'user' || m.role === 'assistant') &&
      ((typeof m.content === 'string' && m.content !== '') || (m.parts?.length ?? 0) > 0),
  );
  let parts: Part[];
  if (continuation !== undefined || spoken.length === users.length) {
    parts = users.flatMap(partsOf);
  } else {
    parts = [{ text: 'The conversation so far:' }];
    for (const m of spoken) {
      const own = partsOf(m);
      const first = own[0];
      if (first !== undefined && 'text' in first) {
        own[0] = { text: `${m.role}: ${first.text}` };
      } else own.unshift({ text: `${m.role}:` });
      parts.push(...own);
    }
  }
  if (parts.length === 0) {
    throw new A2AProtocolError(
      'A2A: nothing to send to the remote agent: the conversation has no new user message',
      A2A_ERROR_CODES.invalidParams,
    );
  }
  return { parts, continuation };
}

/**
 * The remote A2A agent as a golem model: each call sends the new user messages (continuing the
 * remote context, and the remote task when it asked for input) and answers with the agent's reply.
 * Where the remote conversation stands is kept in the reply's `responseId` (`a2a:{…}`), so a
 * stored conversation continues it in another process. Streams when the card does. Internal.
 */
export function remoteModel(connection: A2AConnection): StreamingModel {
  const agent = peerText(connection.card.name, 100);
  const call = async (
    request: ModelRequest,
    options: GenerateOptions | undefined,
    onDelta: DeltaHandler | undefined,
  ): Promise<ModelResponse> => {
    const { parts, continuation } = outgoing(request.messages);
    const resume =
      continuation !== undefined &&
      (continuation.state === 'TASK_STATE_INPUT_REQUIRED' ||
        continuation.state === 'TASK_STATE_AUTH_REQUIRED');
    let streamed = '';
    const outcome = await followTask(
      connection,
      parts,
      {
        ...(continuation !== undefined &&
          continuation.contextId !== '' && { contextId: continuation.contextId }),
        ...(resume && { taskId: continuation.taskId }),
        ...(options?.signal !== undefined && { signal: options.signal }),
      },
      onDelta === undefined
        ? {}
        : {
            onText: async (text) => {
              streamed += text;
              await onDelta({ content: text });
            },
          },
    );
    const text = replyText(agent, outcome);
    if (onDelta !== undefined && text !== streamed) {
      // A question or a rejection is a status text, not an artifact: stream it once at the end.
      if (text.startsWith(streamed)) await onDelta({ content: text.slice(streamed.length) });
    }
    const responseId = `${PREFIX}${JSON.stringify(continuationAfter(outcome, continuation))}`;
    return {
      message: { role: 'assistant', content: text, responseId },
      usage: emptyUsage(),
      finishReason: 'stop',
      modelName: `a2a:${agent}`,
      responseId,
    };
  };
  return {
    name: `a2a:${agent}`,
    generate: (request, options) => call(request, options, undefined),
    stream: (request, onDelta, options) => call(request, options, onDelta),
  };
}

function continuationAfter(outcome: Outcome, before: Continuation | undefined): Continuation {
  if (outcome.kind === 'message') {
    return {
      contextId: outcome.message.contextId ?? before?.contextId ?? '',
      taskId: outcome.message.taskId ?? '',
      state: 'TASK_STATE_COMPLETED',
    };
  }
  return { contextId: outcome.contextId, taskId: outcome.id, state: outcome.status.state };
}

/** The reply the run sees: the output, the agent's question, or how a rejected task ended. */
function replyText(agent: string, outcome: Outcome): string {
  if (outcome.kind === 'message' || outcome.status.state === 'TASK_STATE_COMPLETED') {
    return outcomeText(outcome);
  }
  if (needsInput(outcome)) {
    const question = statusText(outcome);
    return question === '' ? `The remote agent ${agent} needs more input.` : question;
  }
  if (outcome.status.state === 'TASK_STATE_REJECTED') return endedText(agent, outcome);
  throw new A2AProtocolError(`A2A: ${endedText(agent, outcome)}`, A2A_ERROR_CODES.internalError);
}
