/**
 * The official `@a2a-js/sdk` 1.3.0 client against our A2A server on loopback: card discovery,
 * blocking send, streaming send, get and cancel, all over A2A 1.0 JSON-RPC.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { createA2AServer, type A2AServer } from '../../src/a2a/server/server';
import type { ServableAgent } from '../../src/a2a/server/servable-agent';

// The SDK is ESM with CJS builds; jest loads the CJS one (and transforms `jose`, which it requires:
// see jest.config.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require('@a2a-js/sdk') as typeof import('@a2a-js/sdk');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkClient = require('@a2a-js/sdk/client') as typeof import('@a2a-js/sdk/client');

type SdkClient = Awaited<ReturnType<InstanceType<typeof sdkClient.ClientFactory>['createFromUrl']>>;
type SdkSendParams = Parameters<SdkClient['sendMessage']>[0];

let http: Server | undefined;
let a2a: A2AServer | undefined;

afterEach(async () => {
  a2a?.close();
  a2a = undefined;
  if (http !== undefined) {
    http.closeAllConnections();
    await new Promise<void>((resolve) =>
      http?.close(() => {
        resolve();
      }),
    );
    http = undefined;
  }
});

/** Serves `agent` on 127.0.0.1:<free port>/a2a; returns the base URL. */
async function serve(
  agent: ServableAgent,
  options: Partial<Parameters<typeof createA2AServer>[0]> = {},
): Promise<string> {
  const holder: { server?: A2AServer } = {};
  http = createServer((req, res) => {
    void holder.server?.handle(req, res);
  });
  await new Promise<void>((resolve) => http?.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  a2a = createA2AServer({
    ...options,
    agents: agent,
    url: `http://127.0.0.1:${String(port)}/a2a`,
  });
  holder.server = a2a;
  return `http://127.0.0.1:${String(port)}/a2a`;
}

async function client(base: string): Promise<SdkClient> {
  return new sdkClient.ClientFactory().createFromUrl(base);
}

function userMessage(text: string, messageId = 'm-1'): SdkSendParams {
  return {
    tenant: '',
    message: {
      messageId,
      contextId: '',
      taskId: '',
      role: sdk.Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text', value: text },
          metadata: undefined,
          filename: '',
          mediaType: '',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  };
}

/** An agent whose model waits until the run is aborted; `started` resolves when it is waiting. */
function blockingAgent(): { agent: Agent; started: Promise<void> } {
  let began: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    began = resolve;
  });
  const model = new ScriptedModel([
    (_request, options) =>
      new Promise((_resolve, reject) => {
        options.signal?.addEventListener('abort', () => {
          reject(new Error('aborted'));
        });
        began();
      }),
  ]);
  return { agent: new Agent({ model, name: 'slow' }), started };
}

test('the SDK reads our card and picks the JSON-RPC 1.0 interface', async () => {
  const base = await serve(new Agent({ model: new ScriptedModel([]), name: 'echo' }));
  const c = await client(base);
  const card = await c.getAgentCard();
  expect(card.name).toBe('echo');
  expect(card.supportedInterfaces).toEqual([
    expect.objectContaining({ url: base, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }),
  ]);
  expect(card.capabilities?.streaming).toBe(true);
  expect(c.protocolVersion).toBe('1.0');
  // The card is also beside the endpoint (the SDK resolves it relative to a base ending in '/').
  expect((await (await client(`${base}/`)).getAgentCard()).name).toBe('echo');
});

test('SendMessage returns a completed task whose artifact holds the output', async () => {
  const model = new ScriptedModel([textResponse('hello back')]);
  const base = await serve(new Agent({ model }));
  const result = await (await client(base)).sendMessage(userMessage('hello'));
  expect('status' in result).toBe(true);
  const task = result as import('@a2a-js/sdk').Task;
  expect(task.status?.state).toBe(sdk.TaskState.TASK_STATE_COMPLETED);
  expect(task.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'text', value: 'hello back' });
  expect(task.history[0]?.parts[0]?.content).toEqual({ $case: 'text', value: 'hello' });
  expect(model.requests[0]?.messages.at(-1)).toMatchObject({ role: 'user', content: 'hello' });
});

test('SendStreamingMessage streams the task, WORKING, the artifact, then COMPLETED', async () => {
  const base = await serve(new Agent({ model: new ScriptedModel([textResponse('streamed')]) }));
  const events: string[] = [];
  let taskId = '';
  for await (const event of (await client(base)).sendMessageStream(userMessage('go'))) {
    const payload = event.payload;
    if (payload?.$case === 'task') {
      taskId = payload.value.id;
      events.push(`task:${sdk.TaskState[payload.value.status?.state ?? 0]}`);
    } else if (payload?.$case === 'statusUpdate') {
      expect(payload.value.taskId).toBe(taskId);
      events.push(`status:${sdk.TaskState[payload.value.status?.state ?? 0]}`);
    } else if (payload?.$case === 'artifactUpdate') {
      const content = payload.value.artifact?.parts[0]?.content;
      events.push(`artifact:${content?.$case === 'text' ? content.value : '?'}`);
    }
  }
  expect(events).toEqual([
    'task:TASK_STATE_SUBMITTED',
    'status:TASK_STATE_WORKING',
    'artifact:streamed',
    'status:TASK_STATE_COMPLETED',
  ]);
});

test('GetTask returns a finished task by id, and an unknown id is TaskNotFound', async () => {
  const base = await serve(new Agent({ model: new ScriptedModel([textResponse('done')]) }));
  const c = await client(base);
  const sent = (await c.sendMessage(userMessage('x'))) as import('@a2a-js/sdk').Task;
  const got = await c.getTask({ tenant: '', id: sent.id, historyLength: undefined });
  expect(got.id).toBe(sent.id);
  expect(got.status?.state).toBe(sdk.TaskState.TASK_STATE_COMPLETED);
  await expect(
    c.getTask({ tenant: '', id: 'nope', historyLength: undefined }),
  ).rejects.toMatchObject({ name: 'TaskNotFoundError' });
});

test('CancelTask aborts a running task: the stream ends CANCELED', async () => {
  const { agent, started } = blockingAgent();
  const base = await serve(agent);
  const c = await client(base);
  const states: string[] = [];
  let taskId = '';
  const stream = c.sendMessageStream(userMessage('wait'));
  const first = await stream.next();
  if (first.done !== true && first.value.payload?.$case === 'task')
    taskId = first.value.payload.value.id;
  await started;
  const canceled = await c.cancelTask({ tenant: '', id: taskId, metadata: undefined });
  expect(canceled.status?.state).toBe(sdk.TaskState.TASK_STATE_CANCELED);
  for await (const event of stream) {
    if (event.payload?.$case === 'statusUpdate') {
      states.push(sdk.TaskState[event.payload.value.status?.state ?? 0] ?? '?');
    }
  }
  expect(states).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_CANCELED']);
  await expect(c.cancelTask({ tenant: '', id: taskId, metadata: undefined })).rejects.toMatchObject(
    {
      name: 'TaskNotCancelableError',
    },
  );
});

test('SubscribeToTask follows a running task to its end', async () => {
  const { agent, started } = blockingAgent();
  const base = await serve(agent);
  const c = await client(base);
  const sent = (await c.sendMessage({
    ...userMessage('wait'),
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: true,
    },
  })) as import('@a2a-js/sdk').Task;
  expect(sent.status?.state).toBe(sdk.TaskState.TASK_STATE_WORKING);
  await started;
  const seen: string[] = [];
  for await (const event of c.resubscribeTask({ tenant: '', id: sent.id })) {
    const payload = event.payload;
    if (payload?.$case === 'task') {
      seen.push(`task:${sdk.TaskState[payload.value.status?.state ?? 0] ?? '?'}`);
      await c.cancelTask({ tenant: '', id: sent.id, metadata: undefined });
    } else if (payload?.$case === 'statusUpdate') {
      seen.push(`status:${sdk.TaskState[payload.value.status?.state ?? 0] ?? '?'}`);
    }
  }
  expect(seen).toEqual(['task:TASK_STATE_WORKING', 'status:TASK_STATE_CANCELED']);
});

test('the SDK lists tasks and manages push notification configs', async () => {
  const base = await serve(new Agent({ model: new ScriptedModel([textResponse('listed')]) }), {
    pushNotifications: { allow: (url) => url.hostname === 'hooks.example.com' },
  });
  const c = await client(base);
  expect((await c.getAgentCard()).capabilities?.pushNotifications).toBe(true);
  const sent = (await c.sendMessage(userMessage('x'))) as import('@a2a-js/sdk').Task;
  const listed = await c.listTasks({
    tenant: '',
    contextId: '',
    status: sdk.TaskState.TASK_STATE_UNSPECIFIED,
    pageSize: 10,
    pageToken: '',
    historyLength: undefined,
    statusTimestampAfter: undefined,
    includeArtifacts: true,
  });
  expect(listed.tasks.map((t) => t.id)).toEqual([sent.id]);
  expect(listed.totalSize).toBe(1);
  expect(listed.tasks[0]?.artifacts[0]?.parts[0]?.content).toEqual({
    $case: 'text',
    value: 'listed',
  });
  const config = {
    tenant: '',
    id: 'cfg-1',
    taskId: sent.id,
    url: 'https://hooks.example.com/a2a',
    token: 'tok',
    authentication: undefined,
  };
  expect(await c.createTaskPushNotificationConfig(config)).toMatchObject({
    id: 'cfg-1',
    taskId: sent.id,
    url: 'https://hooks.example.com/a2a',
    token: 'tok',
  });
  expect(
    await c.getTaskPushNotificationConfig({ tenant: '', taskId: sent.id, id: 'cfg-1' }),
  ).toMatchObject({ id: 'cfg-1', url: 'https://hooks.example.com/a2a' });
  const configs = await c.listTaskPushNotificationConfig({
    tenant: '',
    taskId: sent.id,
    pageSize: 10,
    pageToken: '',
  });
  expect(configs.configs.map((cfg) => cfg.id)).toEqual(['cfg-1']);
  await c.deleteTaskPushNotificationConfig({ tenant: '', taskId: sent.id, id: 'cfg-1' });
  await expect(
    c.getTaskPushNotificationConfig({ tenant: '', taskId: sent.id, id: 'cfg-1' }),
  ).rejects.toMatchObject({ name: 'TaskNotFoundError' });
  await expect(
    c.createTaskPushNotificationConfig({ ...config, url: 'https://evil.example.com/x' }),
  ).rejects.toBeDefined();
});

/** A data part as the SDK builds it. */
function sdkData(value: unknown): import('@a2a-js/sdk').Part {
  return {
    content: { $case: 'data', value: value as never },
    metadata: undefined,
    filename: '',
    mediaType: 'application/json',
  };
}

/**
 * An agent whose `book` tool needs approval; `booked` records the nights actually booked. A
 * restarted one (`fresh: false`) only has the answer left to give.
 */
function bookingAgent(booked: string[], fresh = true): Agent<unknown, string, true> {
  const book = defineTool({
    name: 'book',
    schema: { type: 'object', properties: { night: { type: 'string' } }, required: ['night'] },
    approval: true,
    execute: (args) => {
      booked.push((args as { night: string }).night);
      return 'booked';
    },
  });
  return new Agent({
    name: 'booking',
    model: new ScriptedModel([
      ...(fresh ? [toolCallResponse([{ id: 'b1', name: 'book', args: { night: 'Friday' } }])] : []),
      textResponse('Booked Friday.'),
    ]),
    tools: [book],
    deferredTools: true,
  });
}

/** Continues `task` with an approval of call b1, as the SDK sends it. */
function approval(task: import('@a2a-js/sdk').Task): SdkSendParams {
  const params = userMessage('', 'm-2');
  return {
    ...params,
    message: {
      ...(params.message as NonNullable<SdkSendParams['message']>),
      taskId: task.id,
      contextId: task.contextId,
      parts: [sdkData({ approvals: { b1: true } })],
    },
  };
}

test('input required: the SDK streams to INPUT_REQUIRED, then its data part approves the call', async () => {
  const booked: string[] = [];
  const c = await client(await serve(bookingAgent(booked)));
  const states: number[] = [];
  let task: import('@a2a-js/sdk').Task | undefined;
  for await (const event of c.sendMessageStream(userMessage('book Friday'))) {
    const payload = event.payload;
    if (payload?.$case === 'task') task = payload.value;
    if (payload?.$case === 'statusUpdate') states.push(payload.value.status?.state ?? -1);
  }
  expect(states.at(-1)).toBe(sdk.TaskState.TASK_STATE_INPUT_REQUIRED);
  if (task === undefined) throw new Error('expected the task');
  expect(booked).toEqual([]);
  const done = (await c.sendMessage(approval(task))) as import('@a2a-js/sdk').Task;
  expect(done.id).toBe(task.id);
  expect(done.status?.state).toBe(sdk.TaskState.TASK_STATE_COMPLETED);
  expect(done.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'text', value: 'Booked Friday.' });
  expect(booked).toEqual(['Friday']);
});

test('a server restart with a SQLite store: the SDK reads the paused task and approves it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'golem-a2a-'));
  const path = join(dir, 'tasks.db');
  try {
    const booked: string[] = [];
    const first = sqliteStore({ path });
    const base = await serve(bookingAgent(booked), { store: first });
    const paused = (await (
      await client(base)
    ).sendMessage(userMessage('book Friday'))) as import('@a2a-js/sdk').Task;
    expect(paused.status?.state).toBe(sdk.TaskState.TASK_STATE_INPUT_REQUIRED);
    // The server goes away (its process would); a new one opens the same file.
    a2a?.close();
    http?.closeAllConnections();
    await new Promise<void>((resolve) =>
      http?.close(() => {
        resolve();
      }),
    );
    http = undefined;
    await first.close();
    const second = sqliteStore({ path });
    try {
      const c = await client(await serve(bookingAgent(booked, false), { store: second }));
      const read = await c.getTask({ tenant: '', id: paused.id, historyLength: undefined });
      expect(read.status?.state).toBe(sdk.TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(read.contextId).toBe(paused.contextId);
      const done = (await c.sendMessage(approval(read))) as import('@a2a-js/sdk').Task;
      expect(done.status?.state).toBe(sdk.TaskState.TASK_STATE_COMPLETED);
      expect(booked).toEqual(['Friday']);
      const again = await c.getTask({ tenant: '', id: paused.id, historyLength: undefined });
      expect(again.artifacts[0]?.parts[0]?.content).toEqual({
        $case: 'text',
        value: 'Booked Friday.',
      });
    } finally {
      a2a?.close();
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
