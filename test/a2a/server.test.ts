/**
 * Our A2A 1.0 server over raw HTTP on loopback: the card, every JSON-RPC method, errors, the body
 * bound, origin checks, authentication, input-required approvals and durable task ids.
 */
import { createServer, type Server } from 'node:http';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { Agent, ConfigError, decodeJSON, defineTool, loadConversation, loadRun } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { agentCard } from '../../src/a2a/server/card';
import { createA2AServer, type A2AServer } from '../../src/a2a/server/server';
import type { A2AServerOptions } from '../../src/a2a/server/server-options';
import { parseCard } from '../../src/a2a/card-check';
import { parseRpcResponse, parseTask } from '../../src/a2a/wire-check';
import type { Task } from '../../src/a2a/wire-types';

const servers: Server[] = [];
let a2a: A2AServer | undefined;
const served: A2AServer[] = [];

afterEach(async () => {
  for (const server of served.splice(0)) server.close();
  a2a = undefined;
  for (const http of servers.splice(0)) {
    http.closeAllConnections();
    await new Promise<void>((resolve) => {
      http.close(() => {
        resolve();
      });
    });
  }
});

/** A node:http server on 127.0.0.1:<free port> (closed after the test); returns its origin. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const http = createServer(handler);
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
}

function track(server: A2AServer): A2AServer {
  a2a = server;
  served.push(server);
  return server;
}

/** Serves on 127.0.0.1:<free port>/a2a; returns the endpoint URL. */
async function serve(options: Omit<A2AServerOptions, 'url'>): Promise<string> {
  const holder: { server?: A2AServer } = {};
  const url = `${await listen((req, res) => {
    void holder.server?.handle(req, res);
  })}/a2a`;
  holder.server = track(createA2AServer({ ...options, url }));
  return url;
}

let nextId = 0;

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Calls `method`; returns the parsed JSON-RPC response. */
async function rpc(url: string, method: string, params: unknown, headers?: Record<string, string>) {
  const id = ++nextId;
  const res = await post(url, { jsonrpc: '2.0', id, method, params }, headers);
  const response = parseRpcResponse(await res.json());
  expect(response.id).toBe(id);
  return response;
}

function message(text: string, extra: Record<string, unknown> = {}) {
  return {
    message: { messageId: `m-${String(++nextId)}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
  };
}

async function send(url: string, params: unknown): Promise<Task> {
  const response = await rpc(url, 'SendMessage', params);
  if ('error' in response) throw new Error(`unexpected error ${JSON.stringify(response.error)}`);
  const result = response.result as { task?: unknown };
  return parseTask(result.task);
}

async function errorOf(
  url: string,
  method: string,
  params: unknown,
  headers?: Record<string, string>,
) {
  const response = await rpc(url, method, params, headers);
  if (!('error' in response)) throw new Error('expected an error');
  return response.error;
}

function textAgent(...texts: string[]): Agent {
  return new Agent({ model: new ScriptedModel(texts.map((t) => textResponse(t))), name: 'helper' });
}

/** Reads an SSE response into its JSON-RPC frames. */
async function frames(
  res: Response,
): Promise<Array<{ id: unknown; result: Record<string, unknown> }>> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map(
      (frame) =>
        JSON.parse(frame.slice('data: '.length)) as {
          id: unknown;
          result: Record<string, unknown>;
        },
    );
}

describe('card', () => {
  test('is served beside the endpoint, generated from the agent', async () => {
    const url = await serve({ agents: textAgent() });
    const res = await fetch(`${url}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const card = parseCard(await res.json());
    expect(card).toMatchObject({
      name: 'helper',
      version: '1.0.0',
      supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true },
      skills: [{ id: 'helper', name: 'helper' }],
    });
    expect(a2a?.card).toEqual(card);
  });

  test('options override the generated fields and security requirements follow the schemes', () => {
    const card = agentCard(textAgent(), {
      url: 'https://agents.example.com/a2a',
      name: 'Billing',
      description: 'Answers billing questions',
      skills: [{ id: 'refunds', name: 'Refunds', description: 'Refund rules', tags: ['billing'] }],
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    });
    expect(card).toMatchObject({
      name: 'Billing',
      description: 'Answers billing questions',
      skills: [{ id: 'refunds' }],
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    });
  });

  test('a URL that is not absolute http(s) is a ConfigError', () => {
    expect(() => agentCard(textAgent(), { url: 'agents/a2a' })).toThrow(ConfigError);
    expect(() => createA2AServer({ agents: textAgent(), url: 'ftp://x/a2a' })).toThrow(/url/);
  });
});

describe('methods', () => {
  test('SendMessage completes the task with a text artifact and keeps the message in history', async () => {
    const url = await serve({ agents: textAgent('four') });
    const task = await send(url, message('2+2?', { contextId: 'ctx-1' }));
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.contextId).toBe('ctx-1');
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'four' }]);
    expect(task.history?.[0]).toMatchObject({
      role: 'ROLE_USER',
      taskId: task.id,
      parts: [{ text: '2+2?' }],
    });
  });

  test('structured output travels as a data part', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('{"total":4}')]),
      output: decodeJSON(),
    });
    const url = await serve({ agents: agent });
    const task = await send(url, message('sum'));
    expect(task.artifacts?.[0]?.parts).toEqual([
      { data: { total: 4 }, mediaType: 'application/json' },
    ]);
  });

  test('SendStreamingMessage writes SSE frames answering the request id', async () => {
    const url = await serve({ agents: textAgent('streamed') });
    const res = await post(url, {
      jsonrpc: '2.0',
      id: 'r-1',
      method: 'SendStreamingMessage',
      params: message('go'),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const all = await frames(res);
    expect(all.every((f) => f.id === 'r-1')).toBe(true);
    expect(all.map((f) => Object.keys(f.result)[0])).toEqual([
      'task',
      'statusUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
    expect(all[3]?.result).toMatchObject({
      statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } },
    });
  });

  test('GetTask honours historyLength; unknown ids are TaskNotFound (-32001)', async () => {
    const url = await serve({ agents: textAgent('ok') });
    const task = await send(url, message('hi'));
    const got = await rpc(url, 'GetTask', { id: task.id, historyLength: 0 });
    expect('result' in got && parseTask(got.result)).toMatchObject({
      id: task.id,
      status: { state: 'TASK_STATE_COMPLETED' },
    });
    expect('result' in got && parseTask(got.result).history).toEqual([]);
    expect(await errorOf(url, 'GetTask', { id: 'missing' })).toMatchObject({ code: -32001 });
  });

  test('CancelTask of a finished task is TaskNotCancelable (-32002)', async () => {
    const url = await serve({ agents: textAgent('ok') });
    const task = await send(url, message('hi'));
    expect(await errorOf(url, 'CancelTask', { id: task.id })).toMatchObject({ code: -32002 });
    expect(await errorOf(url, 'CancelTask', { id: 'missing' })).toMatchObject({ code: -32001 });
  });

  test('returnImmediately answers WORKING; CancelTask then aborts the run', async () => {
    let aborted = false;
    let began: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      began = resolve;
    });
    const model = new FunctionModel(
      (_request, options) =>
        new Promise((_resolve, reject) => {
          options.signal?.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
          began();
        }),
    );
    const url = await serve({ agents: new Agent({ model }) });
    const task = await send(url, {
      ...message('wait'),
      configuration: { returnImmediately: true },
    });
    expect(task.status.state).toBe('TASK_STATE_WORKING');
    await started;
    const canceled = await rpc(url, 'CancelTask', { id: task.id });
    expect('result' in canceled && parseTask(canceled.result).status.state).toBe(
      'TASK_STATE_CANCELED',
    );
    expect(aborted).toBe(true);
  });

  test('SubscribeToTask of a finished task is UnsupportedOperation (-32004)', async () => {
    const url = await serve({ agents: textAgent('ok') });
    const task = await send(url, message('hi'));
    expect(await errorOf(url, 'SubscribeToTask', { id: task.id })).toMatchObject({ code: -32004 });
  });
});

describe('errors', () => {
  test('malformed requests get JSON-RPC errors', async () => {
    const url = await serve({ agents: textAgent() });
    const parse = (await (await post(url, '{nope')).json()) as unknown;
    expect(parse).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const batch = (await (
      await post(url, [{ jsonrpc: '2.0', id: 1, method: 'GetTask' }])
    ).json()) as unknown;
    expect(batch).toMatchObject({ error: { code: -32600 } });
    const version = (await (
      await post(url, { jsonrpc: '1.0', id: 1, method: 'GetTask' })
    ).json()) as unknown;
    expect(version).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(await errorOf(url, 'Nope', {})).toMatchObject({ code: -32601 });
    expect(await errorOf(url, 'CreateTaskPushNotificationConfig', {})).toMatchObject({
      code: -32003,
    });
    expect(await errorOf(url, 'GetTask', { id: 7 })).toMatchObject({ code: -32602 });
    const fromAgent = { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } };
    expect(await errorOf(url, 'SendMessage', fromAgent)).toMatchObject({ code: -32602 });
    expect(
      await errorOf(url, 'SendMessage', { message: { role: 'ROLE_USER', parts: [] } }),
    ).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/messageId/) as unknown,
    });
  });

  test('a request without A2A-Version 1.0 is VersionNotSupported (-32009)', async () => {
    const url = await serve({ agents: textAgent() });
    expect(await errorOf(url, 'GetTask', { id: 'x' }, { 'A2A-Version': '0.3' })).toMatchObject({
      code: -32009,
    });
  });

  test('wrong HTTP methods and unknown paths are refused', async () => {
    const url = await serve({ agents: textAgent() });
    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(`${url}/elsewhere`)).status).toBe(404);
  });

  test('a failing run reports only a reference; the thrown text stays on the server', async () => {
    const model = new ScriptedModel([new Error('db password is hunter2')]);
    const seen: Array<{ error: unknown; ref: string }> = [];
    const url = await serve({
      agents: new Agent({ model }),
      onError: (error, info) => seen.push({ error, ref: info.ref }),
    });
    const res = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: message('go'),
    });
    const text = await res.text();
    expect(text).not.toMatch(/hunter2/);
    const task = parseTask(
      (parseRpcResponse(JSON.parse(text)) as { result: { task: unknown } }).result.task,
    );
    expect(task.status.state).toBe('TASK_STATE_FAILED');
    expect(seen).toHaveLength(1);
    expect(task.status.message?.parts).toEqual([
      { text: `internal error (ref ${seen[0]?.ref ?? ''})` },
    ]);
    expect(String(seen[0]?.error)).toMatch(/hunter2/);
  });

  test('a body over maxBodyBytes is 413', async () => {
    const url = await serve({ agents: textAgent(), maxBodyBytes: 200 });
    const res = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: message('x'.repeat(500)),
    });
    expect(res.status).toBe(413);
  });
});

describe('doors', () => {
  test('authenticate guards the endpoint (401) but not the card', async () => {
    const url = await serve({
      agents: textAgent('ok'),
      authenticate: (req) => req.headers.authorization === 'Bearer t0ken',
    });
    const denied = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'GetTask',
      params: { id: 'x' },
    });
    expect(denied.status).toBe(401);
    expect(await denied.text()).not.toMatch(/t0ken/);
    const allowed = await post(
      url,
      { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: message('hi') },
      { authorization: 'Bearer t0ken' },
    );
    expect(allowed.status).toBe(200);
    expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(200);
  });

  test('browser origins other than the endpoint own and allowedOrigins are refused (403)', async () => {
    const url = await serve({
      agents: textAgent('a', 'b'),
      allowedOrigins: ['https://app.example.com'],
    });
    const body = { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: message('hi') };
    expect((await post(url, body, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(url, body, { origin: 'https://app.example.com' })).status).toBe(200);
    expect((await post(url, body, { origin: new URL(url).origin })).status).toBe(200);
  });

  test('an owner key from authenticate scopes tasks to their caller', async () => {
    const url = await serve({
      agents: textAgent('for alice'),
      authenticate: (req) =>
        typeof req.headers['x-user'] === 'string' ? req.headers['x-user'] : false,
    });
    const res = await post(
      url,
      { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: message('hi') },
      { 'x-user': 'alice' },
    );
    const task = parseTask(((await res.json()) as { result: { task: unknown } }).result.task);
    expect(await errorOf(url, 'GetTask', { id: task.id }, { 'x-user': 'bob' })).toMatchObject({
      code: -32001,
    });
    expect(await errorOf(url, 'CancelTask', { id: task.id }, { 'x-user': 'bob' })).toMatchObject({
      code: -32001,
    });
    const own = await rpc(url, 'GetTask', { id: task.id }, { 'x-user': 'alice' });
    expect('result' in own && parseTask(own.result).id).toBe(task.id);
  });

  test('works as Express middleware, with or without express.json() before it', async () => {
    const agent = textAgent('one', 'two');
    const app = express();
    const holder: { server?: A2AServer } = {};
    app.use('/parsed', express.json());
    app.use((req, res, next) => {
      void holder.server?.handle(req, res, next);
    });
    app.use((_req, res) => {
      res.status(418).end();
    });
    const origin = await listen(app);
    holder.server = track(createA2AServer({ agents: { raw: agent, parsed: agent }, url: origin }));
    expect((await send(`${origin}/raw`, message('a'))).artifacts?.[0]?.parts).toEqual([
      { text: 'one' },
    ]);
    expect((await send(`${origin}/parsed`, message('b'))).artifacts?.[0]?.parts).toEqual([
      { text: 'two' },
    ]);
    expect((await fetch(`${origin}/other`)).status).toBe(418);
  });

  test('several agents are served by key, and one cannot read the other one tasks', async () => {
    const url = await serve({ agents: { math: textAgent('4'), poet: textAgent('rose') } });
    const card = parseCard(await (await fetch(`${url}/poet/.well-known/agent-card.json`)).json());
    expect(card.supportedInterfaces[0]?.url).toBe(`${url}/poet`);
    const task = await send(`${url}/math`, message('2+2'));
    expect(task.artifacts?.[0]?.parts).toEqual([{ text: '4' }]);
    expect(await errorOf(`${url}/poet`, 'GetTask', { id: task.id })).toMatchObject({
      code: -32001,
    });
  });
});

describe('input required and durable tasks', () => {
  const pay = defineTool({
    name: 'pay',
    description: 'Pay',
    schema: { type: 'object', properties: {} },
    approval: true,
    execute: () => 'paid',
  });
  const payingModel = () =>
    new FunctionModel((request) =>
      request.messages.some((m) => m.role === 'tool')
        ? textResponse('Done, paid.')
        : toolCallResponse([{ id: 'p1', name: 'pay', args: {} }]),
    );

  test('a run paused on approval is INPUT_REQUIRED and the next message resumes it', async () => {
    const agent = new Agent({ model: payingModel(), tools: [pay], deferredTools: true });
    const url = await serve({ agents: agent });
    const paused = await send(url, message('pay the bill'));
    expect(paused.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(paused.status.message?.parts[1]).toMatchObject({
      data: { pending: { approvals: [{ callId: 'p1', toolName: 'pay' }] } },
    });
    const missing = await errorOf(url, 'SendMessage', message('yes', { taskId: paused.id }));
    expect(missing).toMatchObject({ code: -32602, data: { missing: ['p1'] } });
    const resume = {
      message: {
        messageId: 'm-approve',
        role: 'ROLE_USER',
        taskId: paused.id,
        parts: [{ data: { approvals: { p1: true } } }],
      },
    };
    const done = await send(url, resume);
    expect(done.id).toBe(paused.id);
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    expect(done.artifacts?.[0]?.parts).toEqual([{ text: 'Done, paid.' }]);
    expect(
      await errorOf(url, 'SendMessage', {
        ...resume,
        message: { ...resume.message, messageId: 'm-3' },
      }),
    ).toMatchObject({
      code: -32004,
    });
  });

  test('with a store, the task id is the stored run id and the contextId the conversation', async () => {
    const store = memoryStore();
    const model = new ScriptedModel([textResponse('first'), textResponse('second')]);
    const url = await serve({ agents: new Agent({ model }), store });
    const one = await send(url, message('one', { contextId: 'conv-7' }));
    await send(url, message('two', { contextId: 'conv-7' }));
    expect((await loadRun(store, one.id)).status).toBe('completed');
    const conversation = await loadConversation(store, 'conv-7');
    expect(conversation?.messages.map((m) => m.content)).toEqual(['one', 'first', 'two', 'second']);
    expect(model.requests[1]?.messages.map((m) => m.content)).toEqual(
      expect.arrayContaining(['one', 'first', 'two']),
    );
  });

  test('tasks survive a restart: a new server reads them, and resumes a paused one', async () => {
    const store = memoryStore();
    const agent = () => new Agent({ model: payingModel(), tools: [pay], deferredTools: true });
    const first = await serve({ agents: agent(), store });
    const paused = await send(first, message('pay', { contextId: 'c-1' }));
    expect(paused.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    a2a?.close();
    const again = await serve({ agents: agent(), store });
    const read = await rpc(again, 'GetTask', { id: paused.id });
    expect('result' in read && parseTask(read.result)).toMatchObject({
      id: paused.id,
      contextId: 'c-1',
      status: { state: 'TASK_STATE_INPUT_REQUIRED' },
    });
    const done = await send(again, {
      message: {
        messageId: 'm-ok',
        role: 'ROLE_USER',
        taskId: paused.id,
        parts: [{ data: { approvals: { p1: true } } }],
      },
    });
    expect(done.status.state).toBe('TASK_STATE_COMPLETED');
    const third = await serve({ agents: agent(), store });
    const finished = await rpc(third, 'GetTask', { id: paused.id });
    expect('result' in finished && parseTask(finished.result).artifacts?.[0]?.parts).toEqual([
      { text: 'Done, paid.' },
    ]);
  });
});
