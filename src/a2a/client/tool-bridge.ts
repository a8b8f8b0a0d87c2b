import {
  ConfigError,
  deferExternal,
  defineTool,
  ModelRetry,
  type Tool,
  type ToolContext,
} from '../../core/index';
import { isRecord } from '../../core/kit/guards';
import type { StreamResponse } from '../wire-types';
import type { A2AConnection } from './connection-types';
import { peerText } from './failures';
import { A2A_COMPONENT, type A2AToolOptions } from './options';
import { pendingReason } from './pending-task';
import { portableName } from './portable-name';
import {
  endedText,
  followTask,
  needsInput,
  outcomeText,
  renderParts,
  statusText,
} from './task-outcome';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_DESCRIPTION = 1024;

/**
 * The remote agent as a golem tool: `{ message }` in, the task's artifacts out as text (data
 * parts as JSON). Streams (`SendStreamingMessage`) when the card declares streaming, else sends
 * (`SendMessage`); status updates are reported as `tool_log` events. The call's signal aborts the
 * request and cancels the remote task. A task that needs input pauses the run (`deferExternal`,
 * answered with `A2AConnection.answer`), or with `inputRequired: 'model'` asks the model to call
 * again; a failed, rejected or canceled task is fed back to the model.
 */
export function bridgeAgent(connection: A2AConnection, options: A2AToolOptions = {}): Tool {
  const { card } = connection;
  const name = options.name ?? portableName(card.name, 64);
  const inputRequired: unknown = options.inputRequired ?? 'defer';
  if (inputRequired !== 'defer' && inputRequired !== 'model') {
    throw new ConfigError(
      `A2A asTool: inputRequired must be 'defer' or 'model', got ${JSON.stringify(inputRequired)}`,
      { component: A2A_COMPONENT, option: 'inputRequired' },
    );
  }
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
    execute: (args, ctx) => callAgent(connection, name, inputRequired, args, ctx),
  });
}

async function callAgent(
  connection: A2AConnection,
  name: string,
  inputRequired: 'defer' | 'model',
  args: unknown,
  ctx: ToolContext,
): Promise<string> {
  if (!isRecord(args) || typeof args.message !== 'string' || args.message.trim() === '') {
    throw new ModelRetry(`${name} needs { "message": "<the request for the agent>" }`);
  }
  const outcome = await followTask(
    connection,
    args.message,
    { signal: ctx.signal },
    {
      onStatus: (update) => {
        report(ctx, update);
      },
    },
  );
  const agent = peerText(connection.card.name, 100);
  if (outcome.kind === 'message' || outcome.status.state === 'TASK_STATE_COMPLETED') {
    return outcomeText(outcome);
  }
  if (needsInput(outcome)) {
    const needs = outcome.status.state === 'TASK_STATE_AUTH_REQUIRED' ? 'authorization' : 'input';
    const question = statusText(outcome);
    if (inputRequired === 'defer') {
      throw deferExternal(
        pendingReason({ taskId: outcome.id, contextId: outcome.contextId, needs, question }),
      );
    }
    throw new ModelRetry(
      `the remote agent ${agent} needs more ${needs} to finish task ${outcome.id}${question === '' ? '' : `: ${question}`}. Call it again with a message that contains everything it needs.`,
    );
  }
  throw new ModelRetry(endedText(agent, outcome));
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
