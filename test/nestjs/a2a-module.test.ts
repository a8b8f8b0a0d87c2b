/**
 * A2AModule: an @Agent class (built by Nest, its @Tool a skill) served over A2A 1.0 by a real Nest
 * application on the Express platform — the card, SendMessage over raw fetch and through the
 * official SDK client (send and stream), agents by key, a route apart from the public URL,
 * authentication, the body bound with and without Nest's body parser, and module shutdown
 * canceling a running task.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Injectable, Module, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { IsString } from 'class-validator';
import { Agent as EngineAgent, ConfigError, type Model, type ModelRequest } from 'golem';
import { Agent, Instructions, Tool } from 'golem/decorators';
import { A2A_SERVER, A2AModule, GolemModule, InjectA2AServer } from 'golem/nestjs';
import type { A2AServer } from 'golem/a2a';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { parseRpcResponse, parseTask } from '../../src/a2a/wire-check';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require('@a2a-js/sdk') as typeof import('@a2a-js/sdk');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdkClient = require('@a2a-js/sdk/client') as typeof import('@a2a-js/sdk/client');
type SdkClient = Awaited<ReturnType<InstanceType<typeof sdkClient.ClientFactory>['createFromUrl']>>;
type SdkSendParams = Parameters<SdkClient['sendMessage']>[0];

class CityArgs {
  @IsString() city!: string;
}

/** A provider the agent injects: proves Nest built the agent. */
@Injectable()
class Thermometer {
  readonly asked: string[] = [];
  celsius(city: string): number {
    this.asked.push(city);
    return city.length + 20;
  }
}

@Agent({ model: 'default' })
@Instructions('You report the weather.')
class WeatherAgent {
  constructor(private readonly thermometer: Thermometer) {}

  @Tool({ description: 'Temperature in a city' })
  temperature(args: CityArgs): string {
    return `${args.city}: ${String(this.thermometer.celsius(args.city))}°C`;
  }
}

/** Calls the tool for Lagos, then answers with what it returned. */
function weatherModel(): FunctionModel {
  return new FunctionModel((request: ModelRequest) => {
    const result = request.messages.find((m) => m.role === 'tool');
    if (result === undefined)
      return toolCallResponse([{ id: 'c1', name: 'temperature', args: { city: 'Lagos' } }]);
    return textResponse(`It is ${String(result.content)}`);
  });
}

/** The Nest application options the tests vary. */
interface AppOptions {
  bodyParser?: boolean;
  rawBody?: boolean;
}

/** A settings module, as ConfigModule would be. */
const PUBLIC_PATH = 'PUBLIC_PATH';
@Module({ providers: [{ provide: PUBLIC_PATH, useValue: '/public/a2a' }], exports: [PUBLIC_PATH] })
class SettingsModule {}

const servers: Server[] = [];
const apps: INestApplication[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const http of servers.splice(0)) {
    http.closeAllConnections();
    await new Promise<void>((resolve) =>
      http.close(() => {
        resolve();
      }),
    );
  }
});

interface Started {
  readonly origin: string;
  readonly app: INestApplication;
  readonly thermometer: Thermometer;
}

/**
 * A Nest app (Express) whose root module imports golem's modules and `a2a(origin)`; it serves on
 * a node:http server listening on 127.0.0.1:<free port> first, so the public URL is known.
 */
async function start(
  a2a: (origin: string) => DynamicModule,
  model: Model = weatherModel(),
  nest: AppOptions = {},
  configure: (app: NestExpressApplication) => void = () => undefined,
): Promise<Started> {
  const holder: { handler?: RequestListener } = {};
  const http = createServer((req, res) => {
    holder.handler?.(req, res);
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  const feature = GolemModule.forFeature([WeatherAgent]);
  class AppModule {}
  Module({
    imports: [GolemModule.forRoot({ defaultModel: model }), feature, a2a(origin)],
    providers: [Thermometer],
  })(AppModule);
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule,
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest types its options as a class; a plain object is what it reads
    Object.assign({ logger: false as const, abortOnError: false }, nest),
  );
  apps.push(app);
  configure(app);
  await app.init();
  holder.handler = app.getHttpAdapter().getInstance() as RequestListener;
  return { origin, app, thermometer: app.get(Thermometer) };
}

const served =
  (options: Record<string, unknown> = {}) =>
  (origin: string) =>
    A2AModule.forRoot({ agents: WeatherAgent, url: `${origin}/a2a`, ...options });

let nextId = 0;

function sendBody(text: string): { jsonrpc: string; id: number; method: string; params: unknown } {
  return {
    jsonrpc: '2.0',
    id: ++nextId,
    method: 'SendMessage',
    params: { message: { messageId: `m-${String(nextId)}`, role: 'ROLE_USER', parts: [{ text }] } },
  };
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function sendText(url: string, text: string, headers?: Record<string, string>) {
  const res = await post(url, sendBody(text), headers);
  expect(res.status).toBe(200);
  const response = parseRpcResponse(await res.json());
  if ('error' in response) throw new Error(`unexpected error ${JSON.stringify(response.error)}`);
  return parseTask((response.result as { task?: unknown }).task);
}

function userMessage(text: string): SdkSendParams {
  return {
    tenant: '',
    message: {
      messageId: `sdk-${String(++nextId)}`,
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

test('the card: the public URL, skills from the @Tool, also at the origin; A2A_SERVER has it', async () => {
  const { origin, app } = await start(served());
  const res = await fetch(`${origin}/a2a/.well-known/agent-card.json`);
  expect(res.status).toBe(200);
  const card = (await res.json()) as Record<string, unknown>;
  expect(card).toMatchObject({
    name: 'WeatherAgent',
    supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'JSONRPC' }],
    skills: [{ id: 'temperature', name: 'temperature', description: 'Temperature in a city' }],
  });
  expect(await (await fetch(`${origin}/.well-known/agent-card.json`)).json()).toEqual(card);
  expect(app.get(A2A_SERVER).card).toEqual(card);
  // Wrong methods get the server's 405, not Nest's 404.
  expect((await fetch(`${origin}/a2a`)).status).toBe(405);
});

test('SendMessage over raw fetch runs the agent Nest built (its injected provider, its tool)', async () => {
  const { origin, thermometer } = await start(served());
  const task = await sendText(`${origin}/a2a`, 'Weather in Lagos?');
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'It is Lagos: 25°C' }]);
  expect(thermometer.asked).toEqual(['Lagos']);
});

test('the official SDK client sends and streams through the Nest route', async () => {
  const { origin } = await start(served());
  const client = await new sdkClient.ClientFactory().createFromUrl(`${origin}/a2a`);
  expect(client.protocolVersion).toBe('1.0');
  const sent = await client.sendMessage(userMessage('Lagos?'));
  expect((sent as import('@a2a-js/sdk').Task).status?.state).toBe(
    sdk.TaskState.TASK_STATE_COMPLETED,
  );
  const seen: string[] = [];
  for await (const event of client.sendMessageStream(userMessage('Lagos again?'))) {
    const payload = event.payload;
    if (payload?.$case === 'statusUpdate')
      seen.push(sdk.TaskState[payload.value.status?.state ?? 0] ?? '?');
    if (payload?.$case === 'artifactUpdate') {
      const content = payload.value.artifact?.parts[0]?.content;
      seen.push(content?.$case === 'text' ? content.value : '?');
    }
  }
  expect(seen).toContain('It is Lagos: 25°C');
  expect(seen.at(-1)).toBe('TASK_STATE_COMPLETED');
});

test('forRootAsync: agents by key, on a route apart from the public URL', async () => {
  const echo = new EngineAgent({ model: new ScriptedModel([textResponse('echo!')]), name: 'echo' });
  const { origin } = await start((base) =>
    A2AModule.forRootAsync({
      path: 'internal/a2a',
      imports: [SettingsModule],
      inject: [PUBLIC_PATH],
      useFactory: (path: string) => ({
        agents: { weather: WeatherAgent, echo },
        url: `${base}${path}`,
      }),
    }),
  );
  const card = (await (
    await fetch(`${origin}/internal/a2a/weather/.well-known/agent-card.json`)
  ).json()) as { name: string; supportedInterfaces: { url: string }[] };
  expect(card.name).toBe('WeatherAgent');
  expect(card.supportedInterfaces[0]?.url).toBe(`${origin}/public/a2a/weather`);
  const task = await sendText(`${origin}/internal/a2a/echo`, 'hi');
  expect(task.artifacts?.[0]?.parts).toEqual([{ text: 'echo!' }]);
  expect((await post(`${origin}/internal/a2a/nobody`, sendBody('hi'))).status).toBe(404);
  // Several agents: no card at the origin's well-known path.
  expect((await fetch(`${origin}/.well-known/agent-card.json`)).status).toBe(404);
});

test('authenticate refusing is a 401 JSON-RPC error; the card stays public', async () => {
  const { origin, thermometer } = await start(
    served({
      authenticate: (req: { headers: Record<string, unknown> }) =>
        req.headers.authorization === 'Bearer s3cret',
    }),
  );
  const refused = await post(`${origin}/a2a`, sendBody('Lagos?'));
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toBe('Bearer');
  expect(await refused.json()).toMatchObject({ error: { message: 'authentication required' } });
  expect(thermometer.asked).toEqual([]);
  expect((await fetch(`${origin}/a2a/.well-known/agent-card.json`)).status).toBe(200);
  const task = await sendText(`${origin}/a2a`, 'Lagos?', { authorization: 'Bearer s3cret' });
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
});

describe('request bodies', () => {
  const huge = () => JSON.stringify({ ...sendBody('x'), pad: 'x'.repeat(2 * 1024 * 1024) });

  test("without Nest's body parser, a 2 MB body is the server's 413", async () => {
    const { origin } = await start(served(), weatherModel(), { bodyParser: false });
    const res = await post(`${origin}/a2a`, huge());
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      error: { message: 'request body exceeds 1048576 bytes' },
    });
    // And a normal body is read from the stream.
    expect((await sendText(`${origin}/a2a`, 'Lagos?')).status.state).toBe('TASK_STATE_COMPLETED');
  });

  test("with Nest's parser raised past maxBodyBytes, the parsed body is bounded by the server", async () => {
    const { origin } = await start(served());
    const raised = await start(served(), weatherModel(), {}, (app) =>
      app.useBodyParser('json', { limit: '5mb' }),
    );
    const res = await post(`${raised.origin}/a2a`, huge());
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      error: { message: 'request body exceeds 1048576 bytes' },
    });
    // With Nest's default parser, its own limit answers 413 first.
    expect((await post(`${origin}/a2a`, huge())).status).toBe(413);
  });

  test('with rawBody: true, maxBodyBytes bounds the bytes sent, not the re-serialised JSON', async () => {
    const padded = JSON.stringify(sendBody('Lagos?')).replace('{', `{${' '.repeat(4000)}`);
    const plain = await start(served({ maxBodyBytes: 2000 }));
    expect((await post(`${plain.origin}/a2a`, padded)).status).toBe(200);
    const raw = await start(served({ maxBodyBytes: 2000 }), weatherModel(), { rawBody: true });
    expect((await post(`${raw.origin}/a2a`, padded)).status).toBe(413);
    expect((await sendText(`${raw.origin}/a2a`, 'Lagos?')).status.state).toBe(
      'TASK_STATE_COMPLETED',
    );
  });
});

test('module shutdown (app.close) cancels a running task', async () => {
  let began: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (began = resolve));
  let aborted = false;
  const model = new ScriptedModel([
    (_request, options) =>
      new Promise((_resolve, reject) => {
        options.signal?.addEventListener('abort', () => {
          aborted = true;
          reject(new Error('aborted'));
        });
        began();
      }),
  ]);
  const { origin, app } = await start(served(), model);
  const streaming = post(`${origin}/a2a`, {
    ...sendBody('Lagos?'),
    method: 'SendStreamingMessage',
  });
  const res = await streaming;
  await started;
  const server: A2AServer = app.get(A2A_SERVER);
  expect(server.card.name).toBe('WeatherAgent');
  await app.close();
  apps.splice(apps.indexOf(app), 1);
  expect(aborted).toBe(true);
  const frames = (await res.text())
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice(6)) as { result: Record<string, unknown> });
  const last = frames.at(-1)?.result as { statusUpdate?: { status: { state: string } } };
  expect(last.statusUpdate?.status.state).toBe('TASK_STATE_CANCELED');
});

test('@InjectA2AServer gives the server to a provider', async () => {
  @Injectable()
  class Cards {
    constructor(@InjectA2AServer() readonly a2a: A2AServer) {}
  }
  const { app } = await start((origin) => {
    const module = served()(origin);
    return { ...module, providers: [...(module.providers ?? []), Cards] };
  });
  expect(app.get(Cards).a2a.card.name).toBe('WeatherAgent');
});

test('an @Agent class no forFeature registers fails the start, naming the fix', async () => {
  @Agent({ model: 'default' })
  class Stray {}
  const error: unknown = await start((origin) =>
    A2AModule.forRoot({ agents: Stray, url: `${origin}/a2a` }),
  ).catch((e: unknown) => e);
  expect(ConfigError.is(error, 'nestjs', 'unregistered-agent')).toBe(true);
  expect((error as Error).message).toBe(
    'A2AModule: Stray is not registered: import GolemModule.forFeature([Stray]) in the application',
  );
});

test('options are checked by forRoot', () => {
  expect(() => A2AModule.forRoot({ agents: {}, url: 'http://x/a2a' })).toThrow(
    'A2AModule.forRoot: agents must be an @Agent class, a golem Agent, or a non-empty record of them by key',
  );
  expect(() =>
    A2AModule.forRoot({ agents: WeatherAgent, url: 'http://x/a2a', path: 'a2a/:id' }),
  ).toThrow(/path must be a plain route/);
});
