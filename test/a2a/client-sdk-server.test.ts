/**
 * Interop: the official `@a2a-js/sdk` 1.3.0 server (DefaultRequestHandler + InMemoryTaskStore + a
 * deterministic AgentExecutor, mounted with its Express middleware on express 5 at 127.0.0.1:0)
 * against our client: card, send, stream, get, cancel (by call and by aborting a stream), and a
 * golem Agent calling the remote agent through `asTool()`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Role, TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { Agent, ConfigError, isCancellation } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { connectA2A } from '../../src/a2a/client/connect';
import type { A2AConnection } from '../../src/a2a/client/connection-types';
import { pendingA2ATask } from '../../src/a2a/client/pending-task';

function textPart(value: string): Part {
  return {
    content: { $case: 'text', value },
    metadata: undefined,
    filename: '',
    mediaType: 'text/plain',
  };
}

function agentMessage(text: string, taskId: string, contextId: string): Message {
  return {
    messageId: `m-${text.length}`,
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** Held executions: a message "wait" blocks until the task is cancelled. */
class EchoExecutor implements AgentExecutor {
  readonly cancelled: string[] = [];
  private readonly onCancel: (() => void)[] = [];

  /** Resolves once a task was canceled (or at once if one was). */
  untilCancelled(): Promise<void> {
    if (this.cancelled.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.onCancel.push(resolve));
  }
  private readonly waiting = new Map<string, () => void>();
  private readonly held: (() => void)[] = [];

  /** How many tasks wait to be canceled. */
  holding(): number {
    return this.waiting.size;
  }

  /** Resolves once a task waits (or at once if one does). */
  untilHolding(): Promise<void> {
    if (this.waiting.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.held.push(resolve));
  }

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = context;
    const text = context.userMessage.parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
      .join('');
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
        artifacts: [],
        history: [context.userMessage],
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
        metadata: undefined,
      }),
    );
    if (text === 'wait') {
      // Ends when cancelTask publishes the CANCELED status.
      await new Promise<void>((resolve) => {
        this.waiting.set(taskId, resolve);
        for (const wake of this.held.splice(0)) wake();
      });
      bus.finished();
      return;
    }
    if (text === 'ask') {
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_INPUT_REQUIRED,
            message: agentMessage('which city?', taskId, contextId),
            timestamp: undefined,
          },
          metadata: undefined,
        }),
      );
      bus.finished();
      return;
    }
    if (text === 'fail') {
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_FAILED,
            message: agentMessage('the printer is on fire', taskId, contextId),
            timestamp: undefined,
          },
          metadata: undefined,
        }),
      );
      bus.finished();
      return;
    }
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: 'answer',
          name: 'answer',
          description: '',
          parts: [textPart(`echo: ${text}`)],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: undefined },
        metadata: undefined,
      }),
    );
    bus.finished();
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    this.cancelled.push(taskId);
    for (const wake of this.onCancel.splice(0)) wake();
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: undefined },
        metadata: undefined,
      }),
    );
    this.waiting.get(taskId)?.();
    this.waiting.delete(taskId);
    await Promise.resolve();
  };
}

function cardAt(base: string, streaming: boolean): AgentCard {
  return {
    name: 'SDK Echo',
    description: 'Echoes the message back, from the official SDK server.',
    supportedInterfaces: [
      { url: `${base}/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    ],
    provider: undefined,
    version: '0.0.1',
    capabilities: { streaming, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'echo',
        description: 'Repeats what it is told',
        tags: ['echo'],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

interface Running {
  readonly base: string;
  readonly executor: EchoExecutor;
  close(): Promise<void>;
}

let running: Running | undefined;

async function startSdkServer(streaming = true): Promise<Running> {
  const app = express();
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const executor = new EchoExecutor();
  const handler = new DefaultRequestHandler(
    cardAt(base, streaming),
    new InMemoryTaskStore(),
    executor,
  );
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use(
    '/a2a',
    jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }),
  );
  return {
    base,
    executor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function connect(streaming = true): Promise<{ connection: A2AConnection; sdk: Running }> {
  running = await startSdkServer(streaming);
  return { connection: await connectA2A(running.base), sdk: running };
}

test('reads the SDK card and picks its JSONRPC 1.0 interface', async () => {
  const { connection, sdk } = await connect();
  expect(connection.card.name).toBe('SDK Echo');
  expect(connection.card.capabilities?.streaming).toBe(true);
  expect(connection.card.skills.map((s) => s.id)).toEqual(['echo']);
  expect(connection.endpoint).toBe(`${sdk.base}/a2a`);
});

test('send returns the completed task with the echo artifact; getTask reads it back', async () => {
  const { connection } = await connect();
  const result = await connection.send('hello');
  if (!('task' in result)) throw new Error('expected a task');
  expect(result.task.status.state).toBe('TASK_STATE_COMPLETED');
  expect(result.task.artifacts?.[0]?.parts).toEqual([
    { text: 'echo: hello', mediaType: 'text/plain' },
  ]);
  const again = await connection.getTask(result.task.id);
  expect(again.id).toBe(result.task.id);
  expect(again.status.state).toBe('TASK_STATE_COMPLETED');
  expect(again.contextId).toBe(result.task.contextId);
});

test('stream yields the task, working, artifact and completed updates in order', async () => {
  const { connection } = await connect();
  const kinds: string[] = [];
  const states: string[] = [];
  let answer = '';
  for await (const update of connection.stream('stream me')) {
    kinds.push(Object.keys(update)[0] ?? '');
    if ('statusUpdate' in update) states.push(update.statusUpdate.status.state);
    if ('artifactUpdate' in update) {
      const part = update.artifactUpdate.artifact.parts[0];
      answer = part !== undefined && 'text' in part ? part.text : '';
    }
  }
  expect(kinds).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
  expect(states).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
  expect(answer).toBe('echo: stream me');
});

test('getTask of an unknown task is the SDK error -32001', async () => {
  const { connection } = await connect();
  const error = (await connection.getTask('no-such-task').catch((e: unknown) => e)) as Error & {
    code?: number;
  };
  expect(error.code).toBe(-32001);
  expect(error.message).toContain('-32001');
});

test('cancelTask cancels a running task; its stream ends at CANCELED', async () => {
  const { connection, sdk } = await connect();
  const states: string[] = [];
  let cancelled: Promise<unknown> | undefined;
  for await (const update of connection.stream('wait')) {
    if ('task' in update) cancelled = connection.cancelTask(update.task.id);
    if ('statusUpdate' in update) states.push(update.statusUpdate.status.state);
  }
  const task = (await cancelled) as { id: string; status: { state: string } };
  expect(task.status.state).toBe('TASK_STATE_CANCELED');
  expect(states.at(-1)).toBe('TASK_STATE_CANCELED');
  expect(sdk.executor.cancelled).toEqual([task.id]);
});

test('aborting a stream cancels the remote task across the wire', async () => {
  const { connection, sdk } = await connect();
  const controller = new AbortController();
  let taskId = '';
  const error = await (async () => {
    for await (const update of connection.stream('wait', { signal: controller.signal })) {
      if ('task' in update) {
        taskId = update.task.id;
        controller.abort();
      }
    }
  })().catch((e: unknown) => e);
  expect(isCancellation(error)).toBe(true);
  expect(sdk.executor.cancelled).toEqual([taskId]);
  expect((await connection.getTask(taskId)).status.state).toBe('TASK_STATE_CANCELED');
});

describe.each([
  ['streaming', true],
  ['blocking', false],
])('a golem Agent calls the SDK agent through asTool (%s)', (_label, streaming) => {
  test('the echo comes back as the tool result', async () => {
    const { connection } = await connect(streaming);
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'SDK_Echo', args: { message: 'ping' } }]),
      textResponse('got it'),
    ]);
    const agent = new Agent({ model, tools: [connection.asTool()] });
    const result = await agent.run('ask the echo agent');
    expect(result.output).toBe('got it');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('echo: ping');
  });

  test('a failed remote task is fed back to the model with its status text', async () => {
    const { connection } = await connect(streaming);
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'SDK_Echo', args: { message: 'fail' } }]),
      textResponse('it failed'),
    ]);
    const agent = new Agent({ model, tools: [connection.asTool()], toolRetries: 1 });
    const result = await agent.run('ask the echo agent');
    expect(result.output).toBe('it failed');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('the printer is on fire');
  });
});

test('status updates become tool_log run events; aborting the run cancels the remote task', async () => {
  const { connection, sdk } = await connect(true);
  const controller = new AbortController();
  const logged: unknown[] = [];
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'SDK_Echo', args: { message: 'wait' } }]),
    textResponse('unreachable'),
  ]);
  const agent = new Agent({ model, tools: [connection.asTool()] });
  const error = await agent
    .run('ask and give up', {
      signal: controller.signal,
      observer: (event) => {
        if (event.kind !== 'tool_log') return;
        logged.push(event.update.data);
        controller.abort();
      },
    })
    .catch((e: unknown) => e);
  expect(isCancellation(error)).toBe(true);
  expect(logged).toEqual([{ taskId: sdk.executor.cancelled[0], state: 'TASK_STATE_WORKING' }]);
  expect(sdk.executor.cancelled).toHaveLength(1);
  const taskId = sdk.executor.cancelled[0] ?? '';
  expect((await connection.getTask(taskId)).status.state).toBe('TASK_STATE_CANCELED');
});

test('a task waiting for input is resumed by the next message naming it', async () => {
  const { connection } = await connect();
  const first = await connection.send('ask');
  if (!('task' in first)) throw new Error('expected a task');
  expect(first.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  expect(first.task.status.message?.parts).toEqual([
    { text: 'which city?', mediaType: 'text/plain' },
  ]);
  const second = await connection.send('Paris', {
    taskId: first.task.id,
    contextId: first.task.contextId,
  });
  if (!('task' in second)) throw new Error('expected a task');
  expect(second.task.id).toBe(first.task.id);
  expect(second.task.status.state).toBe('TASK_STATE_COMPLETED');
  expect(second.task.artifacts?.[0]?.parts).toEqual([
    { text: 'echo: Paris', mediaType: 'text/plain' },
  ]);
});

test("asTool({ inputRequired: 'model' }) feeds a task waiting for input back with the question", async () => {
  const { connection } = await connect(false);
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'SDK_Echo', args: { message: 'ask' } }]),
    textResponse('it asked'),
  ]);
  const agent = new Agent({
    model,
    tools: [connection.asTool({ inputRequired: 'model' })],
    toolRetries: 1,
  });
  expect((await agent.run('go')).output).toBe('it asked');
  const fed = JSON.stringify(model.requests[1]?.messages);
  expect(fed).toContain('needs more input');
  expect(fed).toContain('which city?');
});

describe.each([
  ['streaming', true],
  ['blocking', false],
])('input-required pauses the golem run (%s)', (_label, streaming) => {
  test('the run pauses on the call; answer() resumes the remote task; resume completes', async () => {
    const { connection } = await connect(streaming);
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'SDK_Echo', args: { message: 'ask' } }]),
      textResponse('booked in Paris'),
    ]);
    const agent = new Agent({ model, tools: [connection.asTool()], deferredTools: true });
    const paused = await agent.run('book it');
    if (paused.pending === undefined) throw new Error('expected a pause');
    const [call] = paused.pending.external;
    if (call === undefined) throw new Error('expected an external call');
    expect(call.callId).toBe('c1');
    const task = pendingA2ATask(call);
    expect(task).toMatchObject({ needs: 'input', question: 'which city?' });
    // The pause survives a JSON round trip of the run's state (another process answers it).
    const state = JSON.parse(JSON.stringify(paused.state)) as typeof paused.state;
    const answer = await connection.answer(call, 'Paris');
    expect(answer).toEqual({ done: true, result: 'echo: Paris', state: 'TASK_STATE_COMPLETED' });
    if (!answer.done) throw new Error('expected done');
    const resumed = await agent.resume(state, { external: { c1: answer.result } });
    expect(resumed.output).toBe('booked in Paris');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('echo: Paris');
    const remote = await connection.getTask(task?.taskId ?? '');
    expect(remote.status.state).toBe('TASK_STATE_COMPLETED');
  });
});

test('answer() of a call that did not pause on an A2A task is a ConfigError', async () => {
  const { connection } = await connect();
  const error = await connection
    .answer({ reason: 'a human must approve' }, 'yes')
    .catch((e: unknown) => e);
  expect(ConfigError.is(error, 'a2a')).toBe(true);
});

describe('the SDK agent as a golem Agent (asAgent)', () => {
  test('is a handoff target: the run continues in it, its question is the answer', async () => {
    const { connection } = await connect();
    const remote = connection.asAgent();
    expect(remote.name).toBe('SDK_Echo');
    expect(remote.description).toBe('Echoes the message back, from the official SDK server.');
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([toolCallResponse([{ id: 't1', name: 'transfer_to_SDK_Echo' }])]),
      handoffs: [remote],
    });
    const first = await triage.run('ask');
    expect(first.agent).toBe('SDK_Echo');
    expect(first.output).toBe('which city?');
    // The user's next message goes to the remote agent, which resumes the task waiting for it.
    const second = await remote.run('Paris', { history: first.messages });
    expect(second.output).toBe('echo: Paris');
    // Both replies belong to one remote task, named in the replies' responseId.
    const asked = first.messages.at(-1)?.responseId ?? '';
    const answered = second.messages.at(-1)?.responseId ?? '';
    const taskOf = (id: string): unknown =>
      (JSON.parse(id.slice('a2a:'.length)) as { taskId: unknown }).taskId;
    expect(asked).toContain('TASK_STATE_INPUT_REQUIRED');
    expect(answered).toContain('TASK_STATE_COMPLETED');
    expect(taskOf(answered)).toBe(taskOf(asked));
  });

  test('streams the remote artifact text through runStream', async () => {
    const { connection } = await connect(true);
    const stream = connection.asAgent().runStream('hello');
    let text = '';
    for await (const chunk of stream.textStream) text += chunk;
    expect(text).toBe('echo: hello');
    expect((await stream.result).output).toBe('echo: hello');
  });

  test('a failed remote task fails the run; aborting a run cancels the remote task', async () => {
    const { connection, sdk } = await connect(true);
    const remote = connection.asAgent();
    const failed = await remote.run('fail').catch((e: unknown) => e);
    expect((failed as Error).message).toContain('the printer is on fire');
    const controller = new AbortController();
    const running = remote.run('wait', { signal: controller.signal });
    // The task starts when the executor publishes it: abort once the SDK holds it.
    await sdk.executor.untilHolding();
    controller.abort();
    expect(isCancellation(await running.catch((e: unknown) => e))).toBe(true);
    // The run settles at the abort; the CancelTask it sent reaches the SDK server after.
    await sdk.executor.untilCancelled();
    expect(sdk.executor.cancelled).toHaveLength(1);
    const taskId = sdk.executor.cancelled[0] ?? '';
    expect((await connection.getTask(taskId)).status.state).toBe('TASK_STATE_CANCELED');
  });
});
