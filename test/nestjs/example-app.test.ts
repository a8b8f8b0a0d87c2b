/**
 * examples/nestjs-app driven over real loopback HTTP (fetch), with its models swapped the way a
 * Nest test does it: Test.createTestingModule({ imports: [AppModule] })
 * .overrideProvider(getModelToken('default')).useValue(model). Nothing in the app changes.
 */
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ModelHTTPError, type Model } from 'golem';
import { getModelToken } from 'golem/nestjs';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';
import { AppModule } from '../../examples/nestjs-app/app.module';
import { APP_ENV } from '../../examples/nestjs-app/config.module';
import { parseEventStream } from '../../examples/nestjs-app/sse-client';
import { WeatherRepository } from '../../examples/nestjs-app/weather/weather.repository';
import { HangingModel } from './hanging-model';

let app: INestApplication | undefined;

async function start(model?: Model): Promise<string> {
  let builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(APP_ENV)
    .useValue({});
  if (model !== undefined)
    builder = builder.overrideProvider(getModelToken('default')).useValue(model);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- Nest's options are plain objects
  app = (await builder.compile()).createNestApplication({
    logger: false,
    forceCloseConnections: true,
  });
  await app.listen(0, '127.0.0.1');
  return `${await app.getUrl()}/agents/weather`;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

function post(url: string, body: unknown, user = 'Ada'): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify(body),
  });
}

const failing = () =>
  new ScriptedModel([new ModelHTTPError({ status: 503, provider: 'acme', message: 'overloaded' })]);

test('POST /agents/weather answers the typed forecast; the agent used the feature module repository', async () => {
  const base = await start(); // the app's own offline default: TestModel
  const response = await post(base, { city: 'Lagos', days: 1 });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    output: { city: 'Lagos', celsius: 30, summary: 'Hot: take water.' },
    requests: 2,
  });
  expect(app?.get(WeatherRepository, { strict: false })).toBeInstanceOf(WeatherRepository);
});

test('the overridden model receives the run, with the per-request traveller in the instructions', async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'forecast', args: { city: 'Oslo' } }]),
    textResponse('{"city":"Oslo","celsius":4,"summary":"Cold."}'),
  ]);
  const base = await start(model);
  const response = await post(base, { city: 'Oslo' }, 'Grace');
  expect(await response.json()).toEqual({
    output: { city: 'Oslo', celsius: 4, summary: 'Cold.' },
    requests: 2,
  });
  expect(model.requests[0]?.messages[0]?.content).toContain('The traveller is Grace.');
  expect(model.requests[1]?.messages.at(-1)).toMatchObject({
    role: 'tool',
    content: '{"city":"Oslo","celsius":4,"summary":"Mild: take a jacket."}',
  });
});

test('a bad body is a 400 from the ValidationPipe, and the model is never called', async () => {
  const model = new TestModel();
  const base = await start(model);
  const response = await post(base, { city: '', days: 9, extra: true });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({
    statusCode: 400,
    error: 'Bad Request',
    message: [
      'property extra should not exist',
      'city must be longer than or equal to 1 characters',
      'days must not be greater than 7',
    ],
  });
  expect(model.requests).toHaveLength(0);
});

test('the stream validates its query the same way: a 400 before any event, the model never called', async () => {
  const model = new TestModel();
  const base = await start(model);
  const cases: [string, string[]][] = [
    [
      'city=Lagos&days=two',
      [
        'days must not be greater than 7',
        'days must not be less than 0',
        'days must be an integer number',
      ],
    ],
    ['city=Lagos&days=8', ['days must not be greater than 7']],
    ['days=1', ['city must be longer than or equal to 1 characters', 'city must be a string']],
    ['city=Lagos&units=F', ['property units should not exist']],
  ];
  for (const [query, message] of cases) {
    const response = await fetch(`${base}/stream?${query}`);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect({ status: response.status, body: (await response.json()) as unknown }).toEqual({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message },
    });
  }
  expect(model.requests).toHaveLength(0);
});

test('query strings reach the handler as the DTO, numbers converted (transform)', async () => {
  const model = new ScriptedModel([textResponse('{"city":"Lima","celsius":17,"summary":"Mild."}')]);
  const base = await start(model);
  const events = parseEventStream(await (await fetch(`${base}/stream?city=Lima&days=2`)).text());
  expect(events.at(-1)?.event).toBe('result');
  expect(model.requests[0]?.messages.at(-1)).toMatchObject({
    role: 'user',
    content: 'Forecast for Lima, 2 days ahead.',
  });
});

test("a failed run is a 502 carrying the run's stage", async () => {
  const base = await start(failing());
  const response = await post(base, { city: 'Lagos' });
  expect(response.status).toBe(502);
  expect(await response.json()).toEqual({
    statusCode: 502,
    error: 'Bad Gateway',
    stage: 'model',
    message: 'The run failed at the "model" stage (ModelHTTPError).',
  });
});

test('GET /agents/weather/stream streams deltas then the result with @Sse', async () => {
  const base = await start();
  const response = await fetch(`${base}/stream?city=Lagos&days=1`, {
    headers: { 'x-user': 'Ada' },
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const events = parseEventStream(await response.text());
  expect(events.at(-1)).toEqual({
    event: 'result',
    data: {
      output: { city: 'Lagos', celsius: 30, summary: 'Hot: take water.' },
      pending: null,
      usage: { inputTokens: 48, outputTokens: 4 },
      requests: 2,
      toolCalls: 1,
    },
  });
  expect(events.slice(0, -1).every((e) => e.event === 'delta')).toBe(true);
  expect(events.length).toBeGreaterThan(1);
});

test('a failed streamed run ends with a typed error event carrying the stage', async () => {
  const base = await start(failing());
  const events = parseEventStream(await (await fetch(`${base}/stream?city=Lagos`)).text());
  expect(events).toEqual([
    {
      event: 'error',
      data: {
        stage: 'model',
        kind: 'RunError',
        message: 'The run failed at the "model" stage (ModelHTTPError).',
      },
    },
  ]);
});

test('a client disconnecting mid-stream aborts the run: the model sees its signal aborted', async () => {
  const model = new HangingModel('{"city":');
  const base = await start(model);
  const client = new AbortController();
  const response = await fetch(`${base}/stream?city=Lagos`, { signal: client.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let received = '';
  while (!received.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended before its first event');
    received += new TextDecoder().decode(value);
  }
  expect(parseEventStream(received)).toEqual([{ event: 'delta', data: { content: '{"city":' } }]);
  client.abort();
  const reason = await model.aborted;
  expect((reason as Error).message).toBe('the client disconnected');
});

describe('human approval with deferred tools', () => {
  type Pending = {
    status: 'pending';
    runId: string;
    approvals: { callId: string; tool: string; args: string }[];
  };

  async function pause(base: string, user = 'Ada'): Promise<Pending> {
    const response = await post(`${base}/alerts`, { city: 'Oslo' }, user);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Pending;
    expect(body).toMatchObject({
      status: 'pending',
      approvals: [{ tool: 'subscribe', args: '{"city":"Oslo"}' }],
    });
    return body;
  }

  test('POST returns the pending calls; approving resumes the run, which runs the tool', async () => {
    const base = await start();
    const repository = app?.get(WeatherRepository, { strict: false }) as WeatherRepository;
    const paused = await pause(base);
    expect(repository.subscriptions).toEqual([]); // nothing ran before the decision
    const decisions = paused.approvals.map((call) => ({ callId: call.callId, approved: true }));
    const done = await post(`${base}/alerts/${paused.runId}`, { decisions });
    expect(await done.json()).toEqual({
      status: 'done',
      output: '{"subscribe":"Ada will get alerts for Oslo"}',
    });
    expect(repository.subscriptions).toEqual(['Ada: Oslo']);
  });

  test('denying tells the model why, and the tool never runs', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'subscribe', args: { city: 'Oslo' } }]),
      textResponse('Understood, no alerts.'),
    ]);
    const base = await start(model);
    const paused = await pause(base);
    const done = await post(`${base}/alerts/${paused.runId}`, {
      decisions: [{ callId: 'c1', approved: false, reason: 'not now' }],
    });
    expect(await done.json()).toEqual({ status: 'done', output: 'Understood, no alerts.' });
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1' });
    expect(model.requests[1]?.messages.at(-1)?.content).toContain('not now');
    expect(
      (app?.get(WeatherRepository, { strict: false }) as WeatherRepository).subscriptions,
    ).toEqual([]);
  });

  test("another user cannot resume someone's paused run, and a run resumes once", async () => {
    const base = await start();
    const paused = await pause(base, 'Ada');
    const decisions = paused.approvals.map((call) => ({ callId: call.callId, approved: true }));
    expect((await post(`${base}/alerts/${paused.runId}`, { decisions }, 'Mallory')).status).toBe(
      404,
    );
    expect((await post(`${base}/alerts/${paused.runId}`, { decisions }, 'Ada')).status).toBe(200);
    expect((await post(`${base}/alerts/${paused.runId}`, { decisions }, 'Ada')).status).toBe(404);
  });

  test('a decision body without decisions is a 400', async () => {
    const base = await start();
    const paused = await pause(base);
    expect((await post(`${base}/alerts/${paused.runId}`, { decisions: [] })).status).toBe(400);
  });

  test('each decision is validated too (types, unknown fields); the refused body leaves the run paused', async () => {
    const base = await start();
    const repository = app?.get(WeatherRepository, { strict: false }) as WeatherRepository;
    const paused = await pause(base);
    const callId = paused.approvals[0]?.callId ?? '';
    const refused = await post(`${base}/alerts/${paused.runId}`, {
      decisions: [{ callId, approved: 'yes', approvedBy: 'Ada' }],
    });
    expect(await refused.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: [
        'decisions.0.property approvedBy should not exist',
        'decisions.0.approved must be a boolean value',
      ],
    });
    expect(repository.subscriptions).toEqual([]);
    const decisions = [{ callId, approved: true }];
    expect((await post(`${base}/alerts/${paused.runId}`, { decisions })).status).toBe(200);
    expect(repository.subscriptions).toEqual(['Ada: Oslo']);
  });
});
