/**
 * The network boundary on Bedrock (issue 12), through the real SDK client against loopback
 * servers: redirects are never followed, secrets never surface, the adapter's timeout is a
 * retryable transport failure, bodies are bounded, streams end at their terminal event, and a
 * settled call retains nothing.
 */
import { getEventListeners } from 'node:events';
import { ModelHTTPError, isRetryable, type ModelRequest } from 'golem';
import { startReplayServer } from '../../../support/replay-server';
import { timersLeftBy } from '../../../support/timer-probe';
import { visibleText } from '../../../support/visible-text';
import {
  CREDENTIALS,
  EVENT_STREAM,
  eventFrame,
  frames,
  jsonReply,
  rejection,
  streamReply,
  useHarness,
} from './support';

import {
  ModelProtocolError,
  ModelRedirectError,
  ModelTransportError,
  ResponseTooLargeError,
} from '../../../support/internal-errors';
const harness = useHarness();
const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const CONVERSE_OK = JSON.stringify({
  output: { message: { role: 'assistant', content: [{ text: 'hello' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
});
const STREAM_OK = frames(
  eventFrame('messageStart', { role: 'assistant' }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hello' } }),
  eventFrame('messageStop', { stopReason: 'end_turn' }),
  eventFrame('metadata', { usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } }),
);

describe('redirects are never followed', () => {
  test.each([307, 308, 302])(
    'a %i to another origin is ModelRedirectError; that origin receives nothing',
    async (status) => {
      const other = await startReplayServer([jsonReply(CONVERSE_OK)]);
      try {
        const { server, model } = harness.current;
        server.push({ status, headers: { location: `${other.url}/model/x/converse?token=t` } });
        const error = await rejection(model().generate(request));
        expect(ModelRedirectError.is(error)).toBe(true);
        expect((error as ModelRedirectError).location).toBe(`${other.url}/model/x/converse`);
        expect(isRetryable(error)).toBe(false);
        expect(other.requests).toHaveLength(0);
      } finally {
        await other.close();
      }
    },
  );
});

describe('secrets', () => {
  test('a secret key echoed in an error body is redacted everywhere', async () => {
    const { server, model } = harness.current;
    server.push(
      jsonReply(
        JSON.stringify({ message: `bad signature for ${CREDENTIALS.secretAccessKey}` }),
        403,
        {
          'x-amzn-errortype': 'AccessDeniedException',
        },
      ),
    );
    const error = await rejection(model().generate(request));
    expect(ModelHTTPError.is(error)).toBe(true);
    expect(visibleText(error)).not.toContain(CREDENTIALS.secretAccessKey);
  });
});

describe('timeouts', () => {
  test.each(['generate', 'stream'] as const)(
    'the adapter timeout on %s is a retryable ModelTransportError',
    async (mode) => {
      const { server, model } = harness.current;
      const type = mode === 'generate' ? 'application/json' : EVENT_STREAM;
      server.push({ status: 200, headers: { 'content-type': type }, hold: true });
      const m = model({ timeout: 100 });
      const error = await rejection(
        mode === 'generate' ? m.generate(request) : m.stream(request, () => undefined),
      );
      expect(ModelTransportError.is(error)).toBe(true);
      expect(isRetryable(error)).toBe(true);
      expect((error as Error).message).toContain('100 ms');
    },
  );
});

describe('bounded bodies', () => {
  test('an error body that never ends still yields its status and Retry-After', async () => {
    const { server, model } = harness.current;
    server.push({
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '3' },
      body: '{"message":"busy',
      hold: true,
    });
    const error = await rejection(model({ errorBodyTimeout: 50 }).generate(request));
    expect(ModelHTTPError.is(error)).toBe(true);
    expect((error as ModelHTTPError).status).toBe(503);
    expect((error as ModelHTTPError).retryAfter).toBe(3000);
    expect(isRetryable(error)).toBe(true);
  });

  test('a Converse body over maxResponseBytes is ResponseTooLargeError', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply(CONVERSE_OK));
    const error = await rejection(model({ maxResponseBytes: 32 }).generate(request));
    expect(ResponseTooLargeError.is(error)).toBe(true);
  });

  test('a ConverseStream answered with JSON is a non-retryable ModelProtocolError', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply(CONVERSE_OK));
    const error = await rejection(model().stream(request, () => undefined));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect((error as Error).message).toContain('application/json');
  });
});

describe('stream termination', () => {
  test('metadata after messageStop completes the stream although the server holds it open', async () => {
    const { server, model } = harness.current;
    server.push({ ...streamReply([STREAM_OK]), hold: true });
    const response = await model({ timeout: 60_000 }).stream(request, () => undefined);
    expect(response.message.content).toBe('hello');
    expect(response.usage).toMatchObject({ inputTokens: 3, outputTokens: 1 });
  });
});

describe('nothing retained', () => {
  // Counts only the timers the calls created (timersLeftBy): a process-wide count also sees Jest's
  // reporter, which re-arms a timer every 100 ms when the file runs in band (as on a 2-core CI).
  test('completed and failed calls leave no timer and no caller listener', async () => {
    const { server, model } = harness.current;
    const m = model();
    const caller = new AbortController();
    await m.generate(request, { signal: caller.signal }).catch(() => undefined); // warm up the SDK
    server.push(jsonReply(CONVERSE_OK), streamReply(STREAM_OK), jsonReply('{}', 400));
    const left = await timersLeftBy(async () => {
      await m.generate(request, { signal: caller.signal });
      await m.stream(request, () => undefined, { signal: caller.signal });
      await m.generate(request, { signal: caller.signal }).catch(() => undefined);
    });
    expect(left).toBe(0);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});

describe('streamed tool input', () => {
  test('a streamed tool input with whitespace equals what generate returns', async () => {
    const { server, model } = harness.current;
    const input = { city: 'Lagos', days: [1, 2] };
    server.push(
      jsonReply(
        JSON.stringify({
          output: {
            message: {
              role: 'assistant',
              content: [{ toolUse: { toolUseId: 't1', name: 'forecast', input } }],
            },
          },
          stopReason: 'tool_use',
          usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
        }),
      ),
      streamReply(
        frames(
          eventFrame('messageStart', { role: 'assistant' }),
          eventFrame('contentBlockStart', {
            contentBlockIndex: 0,
            start: { toolUse: { toolUseId: 't1', name: 'forecast' } },
          }),
          eventFrame('contentBlockDelta', {
            contentBlockIndex: 0,
            delta: { toolUse: { input: '{ "city": "Lagos",' } },
          }),
          eventFrame('contentBlockDelta', {
            contentBlockIndex: 0,
            delta: { toolUse: { input: ' "days": [1, 2] }' } },
          }),
          eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
          eventFrame('messageStop', { stopReason: 'tool_use' }),
          eventFrame('metadata', { usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } }),
        ),
      ),
    );
    const m = model();
    const generated = await m.generate(request);
    const streamed = await m.stream(request, () => undefined);
    expect(streamed.message.toolCalls).toEqual(generated.message.toolCalls);
    expect(streamed.message.toolCalls?.[0]?.args).toBe(JSON.stringify(input));
  });
});
