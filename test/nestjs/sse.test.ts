/**
 * sseFromRun (the Observable for @Sse handlers) and writeRunSse (a raw Node response): deltas,
 * then one result or one typed error event carrying the stage; a client that goes away aborts
 * the run's signal.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, toArray } from 'rxjs';
import { Agent, ModelHTTPError } from 'golem';
import { runErrorData, sseFromRun, writeRunSse, type RunMessageEvent } from 'golem/nestjs';
import { ScriptedModel, textResponse } from 'golem/testing';
import { HangingModel } from './hanging-model';

function collect<R>(
  events: import('rxjs').Observable<RunMessageEvent<R>>,
): Promise<RunMessageEvent<R>[]> {
  return firstValueFrom(events.pipe(toArray()));
}

test('a completed run is its deltas, then one result event without the messages', async () => {
  const agent = new Agent({ model: new ScriptedModel([textResponse('Sunny in Lagos')]) });
  const events = await collect(sseFromRun((signal) => agent.runStream('Weather?', { signal })));
  expect(events.map((e) => e.type)).toEqual([...events.slice(0, -1).map(() => 'delta'), 'result']);
  expect(
    events
      .filter((e) => e.type === 'delta')
      .map((e) => (e.data as { content?: string }).content)
      .join(''),
  ).toBe('Sunny in Lagos');
  expect(events.at(-1)).toEqual({
    type: 'result',
    data: {
      output: 'Sunny in Lagos',
      pending: null,
      usage: { inputTokens: 0, outputTokens: 0 },
      requests: 1,
      toolCalls: 0,
    },
  });
});

test('a failed run ends with an error event carrying the stage, and no result', async () => {
  const failing = new ScriptedModel([
    new ModelHTTPError({ status: 500, provider: 'acme', message: 'upstream down' }),
  ]);
  const agent = new Agent({ model: failing });
  const events = await collect(sseFromRun((signal) => agent.runStream('Weather?', { signal })));
  expect(events).toHaveLength(1);
  const [event] = events;
  expect(event?.type).toBe('error');
  expect(event?.data).toMatchObject({ stage: 'model', kind: 'RunError' });
  expect((event?.data as { message: string }).message).toBe(
    'The run failed at the "model" stage (ModelHTTPError).',
  );
});

test("a foreign error's text is not sent to the client", () => {
  expect(runErrorData(new Error('db password=hunter2 rejected'))).toEqual({
    stage: null,
    kind: 'Error',
    message: 'the run failed',
  });
});

test('a start function that throws ends the stream with an error event', async () => {
  const events = await collect(
    sseFromRun(() => {
      throw new TypeError('bad start');
    }),
  );
  expect(events).toEqual([
    { type: 'error', data: { stage: null, kind: 'Error', message: 'the run failed' } },
  ]);
});

test('the result event data can be shaped', async () => {
  const agent = new Agent({ model: new ScriptedModel([textResponse('ok')]) });
  const events = await collect(
    sseFromRun((signal) => agent.runStream('?', { signal }), {
      result: (r) => ({ answer: r.output, turns: r.messages.length }),
    }),
  );
  expect(events.at(-1)).toEqual({ type: 'result', data: { answer: 'ok', turns: 2 } });
});

test('unsubscribing (the client disconnected) aborts the run: the model sees its signal aborted', async () => {
  const model = new HangingModel();
  const agent = new Agent({ model });
  let run: ReturnType<typeof agent.runStream> | undefined;
  const events: string[] = [];
  const subscription = sseFromRun((signal) => (run = agent.runStream('?', { signal }))).subscribe(
    (event) => {
      events.push(event.type);
      if (event.type === 'delta') subscription.unsubscribe();
    },
  );
  const reason = await model.aborted;
  expect((reason as Error).message).toBe('the client disconnected');
  await expect(run?.result).rejects.toMatchObject({ kind: 'RunError', stage: 'model' });
  expect(events).toEqual(['delta']);
});

describe('writeRunSse on a Node response', () => {
  let server: Server;
  let base: string;
  let start: Parameters<typeof writeRunSse>[1];
  beforeEach(async () => {
    server = createServer((_request, response) => {
      void writeRunSse(response, start);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  test('writes the events as text/event-stream and ends the response', async () => {
    const agent = new Agent({ model: new ScriptedModel([textResponse('Sunny')]) });
    start = (signal) => agent.runStream('?', { signal });
    const response = await fetch(base);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('event: delta\ndata: {"content":"Sunny"}\n\n');
    expect(
      text.endsWith(
        'event: result\ndata: {"output":"Sunny","pending":null,"usage":{"inputTokens":0,"outputTokens":0},"requests":1,"toolCalls":0}\n\n',
      ),
    ).toBe(true);
  });

  test('a client that disconnects mid-stream aborts the run', async () => {
    const model = new HangingModel('hello');
    const agent = new Agent({ model });
    start = (signal) => agent.runStream('?', { signal });
    const client = new AbortController();
    const response = await fetch(base, { signal: client.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('event: delta');
    client.abort();
    const reason = await model.aborted;
    expect((reason as Error).message).toBe('the client disconnected');
  });
});
