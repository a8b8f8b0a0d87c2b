/**
 * Errors and control flow of ConverseStream: exception frames (modelled `:message-type:
 * exception` frames written with the SDK codec), handler errors, back-pressure, cancellation.
 */
import { CancelledError, ModelHTTPError, isRetryable, type Delta, type ModelRequest } from 'golem';
import { ScriptedHandler } from './scripted-handler';
import {
  codec,
  eventFrame,
  exceptionFrame,
  frames,
  ownStream,
  rejection,
  streamReply,
  textStream,
  useHarness,
} from './support';
import { StreamInterruptedError } from '../../../support/internal-errors';

const harness = useHarness();
const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const start = frames(
  eventFrame('messageStart', { role: 'assistant' }),
  eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'partial' } }),
);

function summary(error: unknown): Record<string, unknown> {
  if (!ModelHTTPError.is(error)) throw error;
  return {
    status: error.status,
    code: error.code,
    retryable: error.retryable,
    message: error.message,
  };
}

describe('Bedrock exception frames', () => {
  test.each([
    ['throttlingException', 'ThrottlingException', 429, true],
    ['internalServerException', 'InternalServerException', 500, true],
    ['serviceUnavailableException', 'ServiceUnavailableException', 503, true],
    ['validationException', 'ValidationException', 400, false],
  ])(
    '%s mid-stream → ModelHTTPError %s %i, retryable %s',
    async (frameType, code, status, retryable) => {
      const { server, model } = harness.current;
      server.push(
        streamReply(frames(start, exceptionFrame(frameType, { message: `${code} says no` }))),
      );
      const deltas: Delta[] = [];
      const error = await rejection(model().stream(request, (d) => void deltas.push(d)));
      expect(summary(error)).toEqual({
        status,
        code,
        retryable,
        message: `bedrock: HTTP ${status}: ${code} says no`,
      });
      expect(isRetryable(error)).toBe(retryable);
      expect(deltas).toEqual([{ content: 'partial' }]);
    },
  );

  test('modelStreamErrorException → retryable 500 naming the model’s original status and message', async () => {
    const { server, model } = harness.current;
    server.push(
      streamReply(
        frames(
          start,
          exceptionFrame('modelStreamErrorException', {
            message: 'Model stream failed',
            originalStatusCode: 502,
            originalMessage: 'upstream reset',
          }),
        ),
      ),
    );
    expect(summary(await rejection(model().stream(request, () => undefined)))).toEqual({
      status: 500,
      code: 'ModelStreamErrorException',
      retryable: true,
      message: 'bedrock: HTTP 500: Model stream failed (model status 502: upstream reset)',
    });
  });

  test('an exception as the very first frame is classified the same way', async () => {
    const { server, model } = harness.current;
    server.push(streamReply(exceptionFrame('throttlingException', { message: 'Too many tokens' })));
    expect(summary(await rejection(model().stream(request, () => undefined)))).toEqual({
      status: 429,
      code: 'ThrottlingException',
      retryable: true,
      message: 'bedrock: HTTP 429: Too many tokens',
    });
  });

  test('an unmodelled exception type or an error frame → retryable StreamInterruptedError', async () => {
    const { server, model } = harness.current;
    const errorFrame = codec.encode({
      headers: {
        ':message-type': { type: 'string', value: 'error' },
        ':error-code': { type: 'string', value: 'InternalFailure' },
        ':error-message': { type: 'string', value: 'failed' },
      },
      body: new Uint8Array(),
    });
    server.push(
      streamReply(frames(start, exceptionFrame('brandNewException', { message: 'new' }))),
    );
    server.push(streamReply(frames(start, errorFrame)));
    for (let i = 0; i < 2; i++) {
      const error = await rejection(model().stream(request, () => undefined));
      expect(StreamInterruptedError.is(error)).toBe(true);
      expect(isRetryable(error)).toBe(true);
    }
  });
});

describe('Bedrock stream control flow', () => {
  test('an onDelta error stops the stream and is rethrown as is; the request is aborted', async () => {
    const handler = new ScriptedHandler([ownStream('text.stream.jsonl')]);
    const model = harness.current.model({ client: handler.clientConfig() });
    const failure = new Error('consumer gave up');
    let calls = 0;
    const error = await rejection(
      model.stream(request, () => {
        calls++;
        if (calls === 2) throw failure;
      }),
    );
    expect(error).toBe(failure);
    expect(calls).toBe(2);
    expect(handler.aborted).toBe(true);
  });

  test('an async onDelta is awaited before the next event is handled', async () => {
    const { server, model } = harness.current;
    server.push(streamReply(textStream(['a', 'b', 'c'])));
    const log: string[] = [];
    await model().stream(request, async (d) => {
      log.push(`start ${d.content ?? ''}`);
      for (let i = 0; i < 5; i++) await Promise.resolve();
      log.push(`end ${d.content ?? ''}`);
    });
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  test('a rejected async onDelta is rethrown as is', async () => {
    const { server, model } = harness.current;
    server.push(streamReply(textStream(['a', 'b'])));
    const failure = new Error('async no');
    const error = await rejection(model().stream(request, () => Promise.reject(failure)));
    expect(error).toBe(failure);
  });

  test('an abort mid-stream → CancelledError with the reason; the held body is released', async () => {
    const handler = new ScriptedHandler([start], { hold: true });
    const model = harness.current.model({ client: handler.clientConfig() });
    const controller = new AbortController();
    const reason = new Error('stop now');
    const error = await rejection(
      model.stream(
        request,
        () => {
          controller.abort(reason);
        },
        { signal: controller.signal },
      ),
    );
    expect(CancelledError.is(error)).toBe(true);
    expect((error as Error).cause).toBe(reason);
    expect(handler.aborted).toBe(true);
    expect(handler.outcome).toBe('closed');
  });

  test('a signal aborted before the call → CancelledError, no request', async () => {
    const handler = new ScriptedHandler([start]);
    const model = harness.current.model({ client: handler.clientConfig() });
    const controller = new AbortController();
    controller.abort();
    expect(
      CancelledError.is(
        await rejection(model.stream(request, () => undefined, { signal: controller.signal })),
      ),
    ).toBe(true);
    expect(handler.requests).toBe(0);
  });

  test('redacted reasoning deltas assemble into one redacted block (base64), streamed text unaffected', async () => {
    const { server, model } = harness.current;
    const bytes = Buffer.from([1, 2, 3, 200, 201]);
    server.push(
      streamReply(
        frames(
          eventFrame('messageStart', { role: 'assistant' }),
          eventFrame('contentBlockDelta', {
            contentBlockIndex: 0,
            delta: {
              reasoningContent: { redactedContent: bytes.subarray(0, 2).toString('base64') },
            },
          }),
          eventFrame('contentBlockDelta', {
            contentBlockIndex: 0,
            delta: { reasoningContent: { redactedContent: bytes.subarray(2).toString('base64') } },
          }),
          eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
          eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Hi' } }),
          eventFrame('messageStop', { stopReason: 'end_turn' }),
          eventFrame('metadata', { usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } }),
        ),
      ),
    );
    const deltas: Delta[] = [];
    const response = await model().stream(request, (d) => void deltas.push(d));
    expect(deltas).toEqual([{ content: 'Hi' }]);
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'Hi',
      thinking: [
        {
          redacted: bytes.toString('base64'),
          provider: 'bedrock',
          model: 'us.amazon.nova-micro-v1:0',
        },
      ],
    });
  });

  test('a streamed tool call without input fragments gets args "{}"; max_tokens maps to length', async () => {
    const { server, model } = harness.current;
    server.push(
      streamReply(
        frames(
          eventFrame('messageStart', { role: 'assistant' }),
          eventFrame('contentBlockStart', {
            contentBlockIndex: 0,
            start: { toolUse: { toolUseId: 'tooluse_x', name: 'ping' } },
          }),
          eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
          eventFrame('messageStop', { stopReason: 'max_tokens' }),
        ),
      ),
    );
    const response = await model().stream(request, () => undefined);
    expect(response.message.toolCalls).toEqual([{ id: 'tooluse_x', name: 'ping', args: '{}' }]);
    expect(response.finishReason).toBe('length');
  });
});
