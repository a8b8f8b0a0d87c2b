/**
 * The NestJS-style example served for real: the app is started on a loopback port and driven
 * with HTTP requests (fetch) — the JSON endpoint, the server-sent-events endpoint, validation,
 * routing and model failures, and concurrent requests whose deps must not cross.
 */
import type { Model, ModelRequest } from 'golem';
import {
  ScriptedModel,
  StreamFunctionModel,
  TestModel,
  textResponse,
  toolCallResponse,
} from 'golem/testing';
import { AppModule, createApp, type App } from '../../examples/nest-style-service/app.module';
import { parseEventStream, type ServerSentEvent } from '../../examples/nest-style-service/http/sse';

let app: App | undefined;
let base = '';

async function start(model: Model): Promise<void> {
  app = createApp(AppModule({ defaultModel: model, env: {} }));
  const { port, address } = await app.server.listen(0, '127.0.0.1');
  expect(address).toBe('127.0.0.1');
  base = `http://127.0.0.1:${port}`;
}

afterEach(async () => {
  await app?.server.close();
  app = undefined;
});

function postJson(path: string, body: unknown, user = 'Ada'): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function events(response: Response): Promise<ServerSentEvent[]> {
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  return parseEventStream(await response.text());
}

const LAGOS = { city: 'Lagos', celsius: 31, summary: 'Sunny and humid: take water.' };

describe('POST /forecast', () => {
  test('returns the typed result as JSON', async () => {
    await start(new TestModel());
    const response = await postJson('/forecast', { city: 'Lagos', days: 1 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({
      output: LAGOS,
      usage: { inputTokens: 52, outputTokens: 6 },
      requests: 2,
      toolCalls: 1,
    });
  });

  test('the x-user header reaches the agent as deps, and the tool runs on the injected service', async () => {
    const model = await startScripted();
    await postJson('/forecast', { city: 'Oslo' }, 'Grace');
    expect(model.requests[0]?.messages[0]?.content).toContain('The traveller is Grace.');
    expect(model.requests[1]?.messages.at(-1)?.content).toBe(
      '{"city":"Oslo","days":0,"celsius":4,"conditions":["cloudy"]}',
    );
  });

  test.each([
    ['not JSON', '{city', 'the body is not valid JSON'],
    ['no city', { days: 1 }, 'city'],
    ['days out of range', { city: 'Lagos', days: 9 }, 'days'],
  ])('a bad body (%s) is a 400 naming the problem', async (_name, body, message) => {
    const model = new TestModel();
    await start(model);
    const response = await postJson('/forecast', body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: { message: string } };
    expect(json.error.message).toContain(message);
    expect(model.calls).toBe(0);
  });

  test('a failing model is a 502 carrying the stage', async () => {
    await start(new ScriptedModel([new Error('provider down')]));
    const response = await postJson('/forecast', { city: 'Lagos' });
    expect(response.status).toBe(502);
    const json = (await response.json()) as { error: { stage: string; message: string } };
    expect(json.error.stage).toBe('model');
    expect(json.error.message).toContain('provider down');
  });

  test('concurrent requests keep their own deps', async () => {
    await start(echoModel());
    const names = Array.from({ length: 20 }, (_, i) => `user${i}`);
    const bodies = await Promise.all(
      names.map(async (name) => {
        const response = await postJson('/forecast', { city: 'Lagos' }, name);
        return (await response.json()) as { output: { summary: string } };
      }),
    );
    expect(bodies.map((body) => body.output.summary)).toEqual(names.map((n) => `for ${n}`));
  });
});

describe('/forecast/stream', () => {
  test('GET streams deltas, then the typed result', async () => {
    await start(new TestModel());
    const response = await fetch(`${base}/forecast/stream?city=Lagos&days=1`);
    expect(response.status).toBe(200);
    const received = await events(response);
    expect(received.map((e) => e.event)).toEqual([
      'delta',
      'delta',
      'delta',
      'delta',
      'delta',
      'delta',
      'result',
    ]);
    const deltas = received
      .filter((e) => e.event === 'delta')
      .map((e) => e.data as { content?: string });
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(JSON.stringify(LAGOS));
    expect(received.at(-1)?.data).toEqual({
      output: LAGOS,
      usage: { inputTokens: 52, outputTokens: 6 },
      requests: 2,
      toolCalls: 1,
    });
  });

  test('POST takes the request as JSON', async () => {
    await start(new TestModel());
    const received = await events(await postJson('/forecast/stream', { city: 'Lagos' }));
    expect(received.at(-1)?.event).toBe('result');
  });

  test('a failing run ends the stream with an error event', async () => {
    await start(new ScriptedModel([new Error('provider down')]));
    const received = await events(await fetch(`${base}/forecast/stream?city=Lagos`));
    expect(received).toHaveLength(1);
    expect(received[0]?.event).toBe('error');
    const data = received[0]?.data as { stage: string; message: string };
    expect(data.stage).toBe('model');
    expect(data.message).toContain('provider down');
  });

  test('an invalid query is a 400 before any event', async () => {
    await start(new TestModel());
    const response = await fetch(`${base}/forecast/stream?days=2`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

describe('routing', () => {
  test('an unknown path is a 404 and a wrong method a 405 with Allow', async () => {
    await start(new TestModel());
    const missing = await fetch(`${base}/nope`);
    expect(missing.status).toBe(404);
    const wrong = await fetch(`${base}/forecast`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});

/** A scripted conversation: one tool call, then the forecast. */
async function startScripted(): Promise<ScriptedModel> {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'forecast', args: { city: 'Oslo' } }]),
    textResponse('{"city":"Oslo","celsius":4,"summary":"Cold."}'),
  ]);
  await start(model);
  return model;
}

/** Answers each run with a summary naming the traveller its instructions name. */
function echoModel(): StreamFunctionModel {
  return new StreamFunctionModel(async (request: ModelRequest, send) => {
    const system = request.messages[0]?.content ?? '';
    const name = /The traveller is (\S+)\./.exec(system)?.[1] ?? '?';
    const answer = JSON.stringify({ city: 'Lagos', celsius: 30, summary: `for ${name}` });
    await send({ content: answer });
    return textResponse(answer);
  });
}
