import type { Artifact, Message, Part, StreamResponse, Task, TaskStatus } from '../wire-types';
import type { A2AConnection, A2AInput } from './connection-types';
import { peerText } from './failures';
import type { A2ASendOptions } from './options';

/** Where a remote call ended: a direct reply, or the task's last status and its artifacts. Internal. */
export type Outcome =
  | { readonly kind: 'message'; readonly message: Message }
  | {
      readonly kind: 'task';
      readonly id: string;
      readonly contextId: string;
      readonly status: TaskStatus;
      readonly artifacts: readonly Artifact[];
    };

/** What a collected stream reports while it runs. Internal. */
export interface StreamWatch {
  /** Each status update. */
  readonly onStatus?: (update: Extract<StreamResponse, { statusUpdate: unknown }>) => void;
  /** Each text chunk of an artifact, in order. */
  readonly onText?: (text: string) => void | Promise<void>;
}

/** The outcome of a `SendMessage` result. */
export function sentOutcome(result: { task: Task } | { message: Message }): Outcome {
  if ('message' in result) return { kind: 'message', message: result.message };
  const { task } = result;
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: task.status,
    artifacts: task.artifacts ?? [],
  };
}

/**
 * Sends `input` and follows the task to a settled state: streamed (`SendStreamingMessage`) when the
 * card declares streaming, else sent (`SendMessage`). Artifact chunks are joined per artifact.
 */
export async function followTask(
  connection: A2AConnection,
  input: A2AInput,
  options: A2ASendOptions,
  watch: StreamWatch = {},
): Promise<Outcome> {
  if (connection.card.capabilities?.streaming !== true) {
    const outcome = sentOutcome(await connection.send(input, options));
    if (watch.onText !== undefined) {
      const text = outcomeText(outcome);
      if (text !== '') await watch.onText(text);
    }
    return outcome;
  }
  let id = options.taskId ?? '';
  let contextId = options.contextId ?? '';
  let status: TaskStatus | undefined;
  const artifacts = new Map<string, Artifact>();
  const shown = new Map<string, string>();
  /** Reports the artifact's new text: what it adds to what was already reported of it. */
  const show = async (artifact: Artifact): Promise<void> => {
    if (watch.onText === undefined) return;
    const text = renderParts(artifact.parts);
    const before = shown.get(artifact.artifactId) ?? '';
    shown.set(artifact.artifactId, text);
    const added = text.startsWith(before) ? text.slice(before.length) : text;
    if (added !== '') await watch.onText(added);
  };
  for await (const update of connection.stream(input, options)) {
    if ('message' in update) {
      if (watch.onText !== undefined) await watch.onText(renderParts(update.message.parts));
      return { kind: 'message', message: update.message };
    }
    if ('task' in update) {
      ({ id, contextId, status } = update.task);
      for (const artifact of update.task.artifacts ?? []) {
        artifacts.set(artifact.artifactId, artifact);
        await show(artifact);
      }
    } else if ('statusUpdate' in update) {
      ({ taskId: id, contextId, status } = update.statusUpdate);
      watch.onStatus?.(update);
    } else {
      const { artifact, append } = update.artifactUpdate;
      const before = artifacts.get(artifact.artifactId);
      const merged =
        append === true && before !== undefined ? appended(before, artifact.parts) : artifact;
      artifacts.set(artifact.artifactId, merged);
      await show(merged);
    }
  }
  // The stream only ends normally at a settled state, which always carries a status.
  return {
    kind: 'task',
    id,
    contextId,
    status: status ?? { state: 'TASK_STATE_UNSPECIFIED' },
    artifacts: [...artifacts.values()],
  };
}

/**
 * `artifact` with `parts` appended: a text chunk after a text part continues that text (streamed
 * text arrives as chunks of one text), anything else is another part.
 */
function appended(artifact: Artifact, parts: readonly Part[]): Artifact {
  const out = [...artifact.parts];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (last !== undefined && 'text' in last && 'text' in part) {
      out[out.length - 1] = { ...last, text: last.text + part.text };
    } else out.push(part);
  }
  return { ...artifact, parts: out };
}

/** Whether the outcome waits for the caller (input or authorization required). */
export function needsInput(outcome: Outcome): boolean {
  return (
    outcome.kind === 'task' &&
    (outcome.status.state === 'TASK_STATE_INPUT_REQUIRED' ||
      outcome.status.state === 'TASK_STATE_AUTH_REQUIRED')
  );
}

/** The agent's status text of a task outcome (sanitized, bounded); '' when none. */
export function statusText(outcome: Outcome, max = 2000): string {
  if (outcome.kind === 'message') return '';
  const { message } = outcome.status;
  return message === undefined ? '' : peerText(renderParts(message.parts), max);
}

/**
 * What a finished outcome says: a reply's parts, or a completed task's artifacts (its status text
 * when it has none). Empty for any other state.
 */
export function outcomeText(outcome: Outcome): string {
  if (outcome.kind === 'message') return renderParts(outcome.message.parts);
  if (outcome.status.state !== 'TASK_STATE_COMPLETED') return '';
  const parts = outcome.artifacts.flatMap((a) => a.parts);
  return parts.length > 0 ? renderParts(parts) : renderParts(outcome.status.message?.parts ?? []);
}

/** How a task that did not complete ended, for a model or a person. */
export function endedText(agent: string, outcome: Outcome & { kind: 'task' }): string {
  const said = statusText(outcome);
  const state = outcome.status.state.replace('TASK_STATE_', '').toLowerCase().replace('_', '-');
  return `the remote agent ${agent} ended task ${outcome.id} as ${state}${said === '' ? '' : `: ${said}`}`;
}

/** Parts as text: text verbatim, data as JSON, files as a one-line summary. */
export function renderParts(parts: readonly Part[]): string {
  return parts
    .map((part) => {
      if ('text' in part) return part.text;
      if ('data' in part) return JSON.stringify(part.data);
      const kind = part.mediaType === undefined ? 'file' : `file ${peerText(part.mediaType, 100)}`;
      if ('url' in part) return `[${kind}: ${peerText(part.url, 500)}]`;
      return `[${kind}${part.filename === undefined ? '' : ` ${peerText(part.filename, 100)}`}, inline]`;
    })
    .join('\n');
}
