import { ConfigError, defineTool, ModelRetry, type Tool, type ToolContext } from '../../core/index';
import { isRecord } from '../../core/kit/guards';
import type { Artifact, Message, Part, StreamResponse, Task, TaskStatus } from '../wire-types';
import type { A2AConnection } from './connection-types';
import { peerText } from './failures';
import { A2A_COMPONENT, type A2AToolOptions } from './options';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_DESCRIPTION = 1024;

/** Where a remote call ended: a direct reply, or the task's last status and its artifacts. */
type Outcome =
  | { readonly kind: 'message'; readonly message: Message }
  | {
      readonly kind: 'task';
      readonly id: string;
      readonly status: TaskStatus;
      readonly artifacts: readonly Artifact[];
    };

/**
 * The remote agent as a golem tool: `{ message }` in, the task's artifacts out as text (data
 * parts as JSON). Streams (`SendStreamingMessage`) when the card declares streaming, else sends
 * (`SendMessage`); status updates carrying a message are reported as `tool_log` events. The call's
 * signal aborts the request and cancels the remote task.
 */
export function bridgeAgent(connection: A2AConnection, options: A2AToolOptions = {}): Tool {
  const { card } = connection;
  const name = options.name ?? portableName(card.name);
  if (!NAME.test(name)) {
    throw new ConfigError(
      `A2A asTool: the tool name ${JSON.stringify(name)} must be 1–64 letters, digits, "_" or "-"`,
      { component: A2A_COMPONENT, option: 'name' },
    );
  }
  return defineTool({
    name,
    description: options.description ?? describeCard(connection),
    schema: {
      type: 'object',
      properties: {
        message: { type: 'string', description: `The request for the remote agent ${card.name}.` },
      },
      required: ['message'],
      additionalProperties: false,
    },
    execute: (args, ctx) => callAgent(connection, name, args, ctx),
  });
}

async function callAgent(
  connection: A2AConnection,
  name: string,
  args: unknown,
  ctx: ToolContext,
): Promise<string> {
  if (!isRecord(args) || typeof args.message !== 'string' || args.message.trim() === '') {
    throw new ModelRetry(`${name} needs { "message": "<the request for the agent>" }`);
  }
  const streaming = connection.card.capabilities?.streaming === true;
  const outcome = streaming
    ? await streamed(connection, args.message, ctx)
    : sent(await connection.send(args.message, { signal: ctx.signal }));
  return render(connection.card.name, outcome);
}

function sent(result: { task: Task } | { message: Message }): Outcome {
  if ('message' in result) return { kind: 'message', message: result.message };
  const { task } = result;
  return { kind: 'task', id: task.id, status: task.status, artifacts: task.artifacts ?? [] };
}

async function streamed(
  connection: A2AConnection,
  text: string,
  ctx: ToolContext,
): Promise<Outcome> {
  let id = '';
  let status: TaskStatus | undefined;
  const artifacts = new Map<string, Artifact>();
  for await (const update of connection.stream(text, { signal: ctx.signal })) {
    if ('message' in update) return { kind: 'message', message: update.message };
    if ('task' in update) {
      id = update.task.id;
      status = update.task.status;
      for (const artifact of update.task.artifacts ?? [])
        artifacts.set(artifact.artifactId, artifact);
    } else if ('statusUpdate' in update) {
      id = update.statusUpdate.taskId;
      status = update.statusUpdate.status;
      report(ctx, update);
    } else {
      const { artifact, append } = update.artifactUpdate;
      const before = artifacts.get(artifact.artifactId);
      artifacts.set(
        artifact.artifactId,
        append === true && before !== undefined
          ? { ...before, parts: [...before.parts, ...artifact.parts] }
          : artifact,
      );
    }
  }
  // The stream only ends normally at a settled state, which always carries a status.
  return {
    kind: 'task',
    id,
    status: status ?? { state: 'TASK_STATE_UNSPECIFIED' },
    artifacts: [...artifacts.values()],
  };
}

/** A status update as a `tool_log` event: the state and the agent's status text. */
function report(
  ctx: ToolContext,
  update: Extract<StreamResponse, { statusUpdate: unknown }>,
): void {
  const { status } = update.statusUpdate;
  const text = status.message === undefined ? '' : peerText(renderParts(status.message.parts));
  ctx.report?.({
    kind: 'log',
    level: 'info',
    logger: 'a2a',
    data: { taskId: update.statusUpdate.taskId, state: status.state, ...(text !== '' && { text }) },
  });
}

function render(agent: string, outcome: Outcome): string {
  if (outcome.kind === 'message') return renderParts(outcome.message.parts);
  const { state, message } = outcome.status;
  const said = message === undefined ? '' : peerText(renderParts(message.parts), 2000);
  switch (state) {
    case 'TASK_STATE_COMPLETED': {
      const parts = outcome.artifacts.flatMap((a) => a.parts);
      return parts.length > 0 ? renderParts(parts) : renderParts(message?.parts ?? []);
    }
    case 'TASK_STATE_INPUT_REQUIRED':
    case 'TASK_STATE_AUTH_REQUIRED':
      throw new ModelRetry(
        `the remote agent ${agent} needs more ${state === 'TASK_STATE_AUTH_REQUIRED' ? 'authorization' : 'input'} to finish task ${outcome.id}${said === '' ? '' : `: ${said}`}. Call it again with a message that contains everything it needs.`,
      );
    default:
      throw new ModelRetry(
        `the remote agent ${agent} ended task ${outcome.id} as ${state.replace('TASK_STATE_', '').toLowerCase()}${said === '' ? '' : `: ${said}`}`,
      );
  }
}

/** Parts as text: text verbatim, data as JSON, files as a one-line summary. */
function renderParts(parts: readonly Part[]): string {
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

/** The card's name as a portable tool name. */
function portableName(name: string): string {
  const clean = name
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return clean === '' ? 'remote_agent' : clean;
}

/** The card's description and skills, for the model. */
function describeCard(connection: A2AConnection): string {
  const { card } = connection;
  const skills = card.skills
    .map(
      (s) =>
        `- ${peerText(s.name, 100)}${s.description === '' ? '' : `: ${peerText(s.description, 300)}`}`,
    )
    .join('\n');
  const text = [
    `Ask the remote agent ${peerText(card.name, 100)}.`,
    peerText(card.description, MAX_DESCRIPTION),
    skills === '' ? '' : `Skills:\n${skills}`,
  ]
    .filter((line) => line !== '')
    .join('\n');
  return text.length > MAX_DESCRIPTION * 2 ? `${text.slice(0, MAX_DESCRIPTION * 2)}…` : text;
}
