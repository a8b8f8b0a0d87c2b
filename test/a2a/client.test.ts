/**
 * The A2A client (`connectA2A`) against a loopback stub speaking the A2A 1.0 JSON-RPC binding:
 * card discovery, send, stream, get, cancel, defensive parsing (malformed JSON, oversize bodies,
 * JSON-RPC errors, a card without a JSONRPC 1.0 interface), cancellation across the wire, and the
 * remote agent as a golem tool.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, isCancellation, ModelRetry } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { connectA2A } from '../../src/a2a/client/connect';

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown> | undefined;
}

type Handler = (req: Received, res: ServerResponse) => void;

interface Stub {
  readonly url: string;
  readonly received: Received[];
  /** The JSON-RPC handler; the card route answers with `card`. */
  rpc: Handler;
  card: unknown;
  close(): Promise<void>;
}

let stub: Stub;
const opened = new Set<ServerResponse>();

async function startStub(): Promise<Stub> {
  const received: Received[] = [];
  const state: { rpc: Handler; card: unknown } = {
    rpc: (_req, res) => res.writeHead(500).end(),
    card: undefined,
  };
  const server: Server = createServer((req, res) => {
    opened.add(res);
    res.on('close', () => opened.delete(res));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const entry: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
      };
      received.push(entry);
      if (req.method === 'GET' && req.url === '/agent/.well-known/agent-card.json') {
        json(res, state.card);
        return;
      }
      state.rpc(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    get rpc() {
      return state.rpc;
    },
    set rpc(handler: Handler) {
      state.rpc = handler;
    },
    get card() {
      return state.card;
    },
    set card(value: unknown) {
      state.card = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of opened) res.destroy();
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

function cardFor(url: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Echo',
    description: 'Echoes what it is told.',
    version: '1.2.3',
    supportedInterfaces: [
      { url: `${url}/grpc`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: `${url}/legacy`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'echo', description: 'Echo', tags: ['echo'] }],
    ...overrides,
  };
}

function task(
  state: string,
  extra: Record<string, unknown> = {},
  id = 'task-1',
): Record<string, unknown> {
  return { id, contextId: 'ctx-1', status: { state }, ...extra };
}

function textArtifact(text: string): Record<string, unknown> {
  return { artifactId: 'a-1', parts: [{ text }] };
}

function reply(req: Received, result: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id: req.body?.id ?? null, result };
}

function sseHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

function sseEvent(res: ServerResponse, req: Received, result: unknown): void {
  res.write(`data: ${JSON.stringify(reply(req, result))}\n\n`);
}

function rpcCalls(method: string): Received[] {
  return stub.received.filter((r) => r.body?.method === method);
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

beforeEach(async () => {
  stub = await startStub();
  stub.card = cardFor(stub.url);
});
afterEach(async () => {
  await stub.close();
});

describe('card discovery', () => {
  test('reads the card at the well-known path and picks the JSONRPC 1.0 interface', async () => {
    stub.rpc = (req, res) => {
      json(res, reply(req, { task: task('TASK_STATE_COMPLETED') }));
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    expect(connection.card.name).toBe('Echo');
    expect(connection.card.skills[0]?.id).toBe('echo');
    expect(stub.received[0]?.url).toBe('/agent/.well-known/agent-card.json');
    await connection.send('hi');
    expect(stub.received[1]?.url).toBe('/rpc');
  });

  test('a trailing slash on the base URL reaches the same card', async () => {
    const connection = await connectA2A(`${stub.url}/agent/`);
    expect(connection.card.name).toBe('Echo');
  });

  test('a card without a JSONRPC 1.0 interface is refused, naming what it offers', async () => {
    stub.card = cardFor(stub.url, {
      supportedInterfaces: [
        { url: `${stub.url}/grpc`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
        { url: `${stub.url}/legacy`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
    });
    const error = await rejection(connectA2A(`${stub.url}/agent`));
    expect(error.message).toMatch(/JSONRPC/);
    expect(error.message).toContain('GRPC 1.0');
    expect(error.message).toContain('JSONRPC 0.3');
  });

  test('a card that is not an agent card is refused', async () => {
    stub.card = { name: 'x' };
    const error = await rejection(connectA2A(`${stub.url}/agent`));
    expect(error.message).toMatch(/card/i);
  });

  test('a card route that fails names the HTTP status', async () => {
    const error = await rejection(connectA2A(`${stub.url}/missing`));
    expect(error.message).toContain('500');
  });

  test('the configured headers reach the card and every request; their values stay out of errors', async () => {
    stub.rpc = (_req, res) => res.writeHead(502).end('bad gateway');
    const connection = await connectA2A(`${stub.url}/agent`, {
      headers: { authorization: 'Bearer sekret-token' },
    });
    const error = await rejection(connection.send('hi'));
    expect(stub.received.map((r) => r.headers.authorization)).toEqual([
      'Bearer sekret-token',
      'Bearer sekret-token',
    ]);
    expect(error.message).toContain('502');
    expect(error.message).not.toContain('sekret-token');
  });

  test('a URL that is not http(s) is a ConfigError', async () => {
    const error = await rejection(connectA2A('ftp://example.com'));
    expect(error.name).toBe('ConfigError');
  });
});

describe('send', () => {
  test('posts SendMessage with A2A-Version 1.0 and a user text message; returns the task', async () => {
    stub.rpc = (req, res) => {
      json(
        res,
        reply(req, { task: task('TASK_STATE_COMPLETED', { artifacts: [textArtifact('ok')] }) }),
      );
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const result = await connection.send('hello', { contextId: 'ctx-9', taskId: 'task-9' });
    const sent = rpcCalls('SendMessage')[0];
    expect(sent?.headers['a2a-version']).toBe('1.0');
    expect(sent?.headers['content-type']).toMatch(/^application\/json/);
    expect(sent?.body).toMatchObject({ jsonrpc: '2.0', method: 'SendMessage' });
    const params = sent?.body?.params as { message: Record<string, unknown> };
    expect(params.message).toMatchObject({
      role: 'ROLE_USER',
      parts: [{ text: 'hello' }],
      contextId: 'ctx-9',
      taskId: 'task-9',
    });
    expect(typeof params.message.messageId).toBe('string');
    expect(result).toMatchObject({
      task: {
        id: 'task-1',
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: [textArtifact('ok')],
      },
    });
  });

  test('sends parts as given', async () => {
    stub.rpc = (req, res) => {
      json(
        res,
        reply(req, { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } }),
      );
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const result = await connection.send([{ data: { a: 1 } }, { text: 't' }]);
    const params = rpcCalls('SendMessage')[0]?.body?.params as { message: { parts: unknown } };
    expect(params.message.parts).toEqual([{ data: { a: 1 } }, { text: 't' }]);
    expect(result).toEqual({
      message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] },
    });
  });

  test('a malformed JSON body is a protocol error', async () => {
    stub.rpc = (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":');
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(connection.send('hi'));
    expect(error.message).toMatch(/SendMessage/);
    expect(error.message).toMatch(/JSON/);
  });

  test('a body over maxResponseBytes is refused and the connection is not read further', async () => {
    stub.rpc = (req, res) => {
      json(
        res,
        reply(req, {
          task: task('TASK_STATE_COMPLETED', { artifacts: [textArtifact('x'.repeat(5000))] }),
        }),
      );
    };
    const connection = await connectA2A(`${stub.url}/agent`, { maxResponseBytes: 2048 });
    const error = await rejection(connection.send('hi'));
    expect(error.message).toContain('2048');
  });

  test('a JSON-RPC error carries its code and message', async () => {
    stub.rpc = (req, res) => {
      json(res, {
        jsonrpc: '2.0',
        id: req.body?.id,
        error: { code: -32001, message: 'Task not found' },
      });
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(connection.getTask('nope'));
    expect(error.message).toContain('Task not found');
    expect((error as Error & { code?: unknown }).code).toBe(-32001);
  });

  test('a response for another request id is refused', async () => {
    stub.rpc = (_req, res) => {
      json(res, { jsonrpc: '2.0', id: 'other', result: { task: task('TASK_STATE_COMPLETED') } });
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(connection.send('hi'));
    expect(error.message).toMatch(/id/);
  });

  test('a result that is not a task or message is refused', async () => {
    stub.rpc = (req, res) => {
      json(res, reply(req, { task: { id: 'x' } }));
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    await expect(connection.send('hi')).rejects.toThrow();
  });

  test('getTask and cancelTask post GetTask and CancelTask with the id', async () => {
    stub.rpc = (req, res) => {
      json(
        res,
        reply(
          req,
          task(req.body?.method === 'CancelTask' ? 'TASK_STATE_CANCELED' : 'TASK_STATE_WORKING'),
        ),
      );
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    expect((await connection.getTask('task-1')).status.state).toBe('TASK_STATE_WORKING');
    expect((await connection.cancelTask('task-1')).status.state).toBe('TASK_STATE_CANCELED');
    expect(rpcCalls('GetTask')[0]?.body?.params).toEqual({ id: 'task-1' });
    expect(rpcCalls('CancelTask')[0]?.body?.params).toEqual({ id: 'task-1' });
  });

  test('aborting the signal aborts the request and rejects with a cancellation', async () => {
    const controller = new AbortController();
    stub.rpc = () => {
      controller.abort(new Error('stop'));
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(connection.send('hi', { signal: controller.signal }));
    expect(isCancellation(error)).toBe(true);
  });

  test('aborting a send that continues a task cancels that task', async () => {
    const controller = new AbortController();
    let cancelled: (params: unknown) => void = () => undefined;
    const cancel = new Promise<unknown>((resolve) => (cancelled = resolve));
    stub.rpc = (req, res) => {
      if (req.body?.method === 'CancelTask') {
        cancelled(req.body.params);
        json(res, reply(req, task('TASK_STATE_CANCELED', {}, 'task-7')));
      } else controller.abort();
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(
      connection.send('go on', { taskId: 'task-7', signal: controller.signal }),
    );
    expect(isCancellation(error)).toBe(true);
    expect(await cancel).toEqual({ id: 'task-7' });
  });

  test('after close, calls are refused', async () => {
    const connection = await connectA2A(`${stub.url}/agent`);
    connection.close();
    await expect(connection.send('hi')).rejects.toThrow(/closed/);
  });
});

describe('stream', () => {
  test('yields the task, status and artifact updates and ends at the final status', async () => {
    stub.rpc = (req, res) => {
      sseHead(res);
      sseEvent(res, req, { task: task('TASK_STATE_SUBMITTED') });
      sseEvent(res, req, {
        statusUpdate: {
          taskId: 'task-1',
          contextId: 'ctx-1',
          status: { state: 'TASK_STATE_WORKING' },
        },
      });
      sseEvent(res, req, {
        artifactUpdate: { taskId: 'task-1', contextId: 'ctx-1', artifact: textArtifact('done') },
      });
      sseEvent(res, req, {
        statusUpdate: {
          taskId: 'task-1',
          contextId: 'ctx-1',
          status: { state: 'TASK_STATE_COMPLETED' },
        },
      });
      // The stream stays open: the client stops at the final status.
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const updates = await collect(connection.stream('hi'));
    expect(rpcCalls('SendStreamingMessage')[0]?.headers.accept).toContain('text/event-stream');
    expect(rpcCalls('SendStreamingMessage')[0]?.headers['a2a-version']).toBe('1.0');
    expect(updates.map((u) => Object.keys(u)[0])).toEqual([
      'task',
      'statusUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
  });

  test('a stream answered with a JSON-RPC error (not an event stream) rejects with it', async () => {
    stub.rpc = (req, res) => {
      json(res, {
        jsonrpc: '2.0',
        id: req.body?.id,
        error: { code: -32004, message: 'no streaming' },
      });
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(collect(connection.stream('hi')));
    expect(error.message).toContain('no streaming');
  });

  test('an error event mid-stream rejects with its code', async () => {
    stub.rpc = (req, res) => {
      sseHead(res);
      sseEvent(res, req, { task: task('TASK_STATE_WORKING') });
      res.write(
        `event: error\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: req.body?.id, error: { code: -32603, message: 'boom' } })}\n\n`,
      );
      res.end();
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(collect(connection.stream('hi')));
    expect(error.message).toContain('boom');
  });

  test('a malformed event is a protocol error', async () => {
    stub.rpc = (_req, res) => {
      sseHead(res);
      res.write('data: {not json\n\n');
      res.end();
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(collect(connection.stream('hi')));
    expect(error.message).toMatch(/JSON/);
  });

  test('an event over maxResponseBytes is refused', async () => {
    stub.rpc = (req, res) => {
      sseHead(res);
      sseEvent(res, req, {
        task: task('TASK_STATE_WORKING', { artifacts: [textArtifact('y'.repeat(5000))] }),
      });
    };
    const connection = await connectA2A(`${stub.url}/agent`, { maxResponseBytes: 2048 });
    const error = await rejection(collect(connection.stream('hi')));
    expect(error.message).toContain('2048');
  });

  test('a stream that ends before a final state is an error', async () => {
    stub.rpc = (req, res) => {
      sseHead(res);
      sseEvent(res, req, { task: task('TASK_STATE_WORKING') });
      res.end();
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(collect(connection.stream('hi')));
    expect(error.message).toMatch(/ended/);
  });

  test('aborting the signal stops the stream and sends CancelTask for the task', async () => {
    const controller = new AbortController();
    let cancelled: (params: unknown) => void = () => undefined;
    const cancel = new Promise<unknown>((resolve) => (cancelled = resolve));
    stub.rpc = (req, res) => {
      if (req.body?.method === 'CancelTask') {
        cancelled(req.body.params);
        json(res, reply(req, task('TASK_STATE_CANCELED')));
        return;
      }
      sseHead(res);
      sseEvent(res, req, { task: task('TASK_STATE_WORKING') });
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const seen: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const update of connection.stream('hi', { signal: controller.signal })) {
          seen.push(update);
          controller.abort();
        }
      })(),
    );
    expect(isCancellation(error)).toBe(true);
    expect(seen).toHaveLength(1);
    expect(await cancel).toEqual({ id: 'task-1' });
  });

  test('breaking out of the loop early cancels nothing and closes the request', async () => {
    let closed: Promise<void> = Promise.resolve();
    stub.rpc = (req, res) => {
      closed = new Promise<void>((resolve) =>
        res.on('close', () => {
          resolve();
        }),
      );
      sseHead(res);
      sseEvent(res, req, { task: task('TASK_STATE_WORKING') });
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    for await (const update of connection.stream('hi')) {
      expect(update).toMatchObject({
        task: { id: 'task-1', status: { state: 'TASK_STATE_WORKING' } },
      });
      break;
    }
    expect(rpcCalls('CancelTask')).toEqual([]);
    await closed; // the client closed the connection (else this test times out)
  });
});

describe('asTool', () => {
  function agentCalling(
    connection: Awaited<ReturnType<typeof connectA2A>>,
    model: ScriptedModel,
  ): Agent {
    return new Agent({ model, tools: [connection.asTool()] });
  }

  test('the tool is named for the card and sends the message; the artifact text is its result', async () => {
    stub.card = cardFor(stub.url, { capabilities: {} });
    stub.rpc = (req, res) => {
      json(
        res,
        reply(req, { task: task('TASK_STATE_COMPLETED', { artifacts: [textArtifact('pong')] }) }),
      );
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const tool = connection.asTool();
    expect(tool.name).toBe('Echo');
    expect(tool.description).toContain('Echoes what it is told.');
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'Echo', args: { message: 'ping' } }]),
      textResponse('done'),
    ]);
    const result = await agentCalling(connection, model).run('go');
    expect(result.output).toBe('done');
    const params = rpcCalls('SendMessage')[0]?.body?.params as { message: { parts: unknown } };
    expect(params.message.parts).toEqual([{ text: 'ping' }]);
    const lastRequest = model.requests[1];
    expect(JSON.stringify(lastRequest?.messages)).toContain('pong');
  });

  test('name and description can be overridden; a card name that is not a tool name is sanitised', async () => {
    stub.card = cardFor(stub.url, { name: 'Echo agent (v2)!' });
    const connection = await connectA2A(`${stub.url}/agent`);
    expect(connection.asTool().name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const tool = connection.asTool({ name: 'echo', description: 'custom' });
    expect(tool.name).toBe('echo');
    expect(tool.description).toBe('custom');
  });

  test('streams when the card says so; data artifacts come back as JSON', async () => {
    stub.rpc = (req, res) => {
      sseHead(res);
      sseEvent(res, req, { task: task('TASK_STATE_WORKING') });
      sseEvent(res, req, {
        artifactUpdate: {
          taskId: 'task-1',
          contextId: 'ctx-1',
          artifact: { artifactId: 'a', parts: [{ data: { n: 42 } }] },
        },
      });
      sseEvent(res, req, {
        statusUpdate: {
          taskId: 'task-1',
          contextId: 'ctx-1',
          status: { state: 'TASK_STATE_COMPLETED' },
        },
      });
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'Echo', args: { message: 'count' } }]),
      textResponse('done'),
    ]);
    await agentCalling(connection, model).run('go');
    expect(rpcCalls('SendStreamingMessage')).toHaveLength(1);
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('{\\"n\\":42}');
  });

  test('a FAILED task is fed back as a tool failure with the agent status text', async () => {
    stub.card = cardFor(stub.url, { capabilities: {} });
    stub.rpc = (req, res) => {
      json(
        res,
        reply(req, {
          task: task('TASK_STATE_FAILED', {
            status: {
              state: 'TASK_STATE_FAILED',
              message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'out of coffee' }] },
            },
          }),
        }),
      );
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const tool = connection.asTool();
    const error = await rejection(Promise.resolve(tool.execute({ message: 'x' }, toolContext())));
    expect(ModelRetry.is(error)).toBe(true);
    expect(error.message).toContain('out of coffee');
  });

  test('an INPUT_REQUIRED task is a tool failure saying the remote agent needs input', async () => {
    stub.card = cardFor(stub.url, { capabilities: {} });
    stub.rpc = (req, res) => {
      json(
        res,
        reply(req, {
          task: task('TASK_STATE_INPUT_REQUIRED', {
            status: {
              state: 'TASK_STATE_INPUT_REQUIRED',
              message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'which city?' }] },
            },
          }),
        }),
      );
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(
      Promise.resolve(connection.asTool().execute({ message: 'weather' }, toolContext())),
    );
    expect(error.message).toMatch(/input/i);
    expect(error.message).toContain('which city?');
  });

  test('a direct message reply is the tool result', async () => {
    stub.card = cardFor(stub.url, { capabilities: {} });
    stub.rpc = (req, res) => {
      json(
        res,
        reply(req, { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hey' }] } }),
      );
    };
    const connection = await connectA2A(`${stub.url}/agent`);
    expect(await connection.asTool().execute({ message: 'x' }, toolContext())).toBe('hey');
  });

  test('arguments without a message string are sent back to the model', async () => {
    const connection = await connectA2A(`${stub.url}/agent`);
    const error = await rejection(Promise.resolve(connection.asTool().execute({}, toolContext())));
    expect(ModelRetry.is(error)).toBe(true);
    expect(stub.received).toHaveLength(1);
  });
});

function toolContext(signal: AbortSignal = new AbortController().signal) {
  return {
    deps: undefined,
    signal,
    callId: 'call-1',
    toolName: 'Echo',
    rawArgs: '{}',
    approved: false,
    retry: 0,
  };
}
