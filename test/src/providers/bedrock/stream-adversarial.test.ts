/**
 * Adversarial cases 1–4 for the Bedrock event stream (binary AWS framing decoded by the real
 * SDK): splits at every byte offset, line endings inside payloads, truncated and malformed
 * streams, oversized frames.
 */
import fc from 'fast-check';
import { isRetryable, type Delta, type ModelRequest, type ModelResponse } from 'golem';
import type { BedrockModel } from 'golem/providers/bedrock';
import { ScriptedHandler, bytewise, splitAt } from './scripted-handler';
import {
  eventFrame,
  frameEnds,
  frames,
  ownStream,
  rawEventFrame,
  rejection,
  streamReply,
  textStream,
  useHarness,
} from './support';
import { ModelProtocolError, StreamInterruptedError } from '../../../support/internal-errors';

const harness = useHarness();
const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

const PIECES = ['你好，世界。', ' 👩‍👩‍👧‍👦 家族 🇯🇵', ' مرحبا بالعالم', ' שלום', ' é ñ ß ∑ 𝄞'];
const TEXT = PIECES.join('');
/** Every frame kind of a text stream, with the multibyte text in five deltas. */
const FULL = textStream(PIECES);
/** The smallest complete stream carrying the same text (two deltas), for exhaustive splits. */
const SMALL = frames(
  eventFrame('messageStart', { role: 'assistant' }),
  eventFrame('contentBlockDelta', {
    contentBlockIndex: 0,
    delta: { text: PIECES.slice(0, 2).join('') },
  }),
  eventFrame('contentBlockDelta', {
    contentBlockIndex: 0,
    delta: { text: PIECES.slice(2).join('') },
  }),
  eventFrame('messageStop', { stopReason: 'end_turn' }),
);

/** One model on one in-process handler, reused across the (many) replays of a test. */
function replayer(): (
  chunks: readonly Uint8Array[],
  onDelta?: (d: Delta) => void,
) => Promise<ModelResponse> {
  const handler = new ScriptedHandler([]);
  const model: BedrockModel = harness.current.model({ client: handler.clientConfig() });
  return (chunks, onDelta = () => undefined) => {
    handler.chunks = chunks;
    return model.stream(request, onDelta);
  };
}

async function streamed(
  replay: ReturnType<typeof replayer>,
  chunks: readonly Uint8Array[],
): Promise<{ text: string; response: ModelResponse }> {
  let text = '';
  const response = await replay(chunks, (d) => {
    text += d.content ?? '';
  });
  return { text, response };
}

describe('Bedrock ADV-1 UTF-8 across every split point', () => {
  test('ADV-1 the CJK/emoji/RTL stream split into two chunks at every byte offset decodes identically, no U+FFFD', async () => {
    const replay = replayer();
    const whole = await streamed(replay, [SMALL]);
    expect(whole.text).toBe(TEXT);
    for (let offset = 1; offset < SMALL.length; offset++) {
      const split = await streamed(replay, splitAt(SMALL, [offset]));
      expect(split.text).toBe(TEXT);
      expect(split.response).toEqual(whole.response);
    }
    expect(whole.text.includes('\uFFFD')).toBe(false);
  }, 120_000);

  test('ADV-1 delivered one byte at a time, the text is byte-identical', async () => {
    const { text, response } = await streamed(replayer(), bytewise(FULL));
    expect(text).toBe(TEXT);
    expect(response.message.content).toBe(TEXT);
    expect(response.usage).toEqual({ inputTokens: 3, outputTokens: 5 });
  });

  test('ADV-1 fast-check: a documented text stream cut at arbitrary offsets assembles the same response', async () => {
    const bin = ownStream('text.stream.jsonl');
    const replay = replayer();
    const whole = await streamed(replay, [bin]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: bin.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const split = await streamed(replay, splitAt(bin, cuts));
          expect(split.response).toEqual(whole.response);
          expect(split.text).toBe(whole.response.message.content);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  test('ADV-1 fast-check: the multibyte stream cut into many pieces keeps the exact text, no U+FFFD', async () => {
    const replay = replayer();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: FULL.length - 1 }), { minLength: 1, maxLength: 40 }),
        async (cuts) => {
          const split = await streamed(replay, splitAt(FULL, cuts));
          expect(split.text).toBe(TEXT);
          expect(split.response.message.content).toBe(TEXT);
          expect(split.text.includes('\uFFFD')).toBe(false);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  test('ADV-1 over real HTTP with one write per byte, the text is identical', async () => {
    const { server, model } = harness.current;
    server.push(streamReply(bytewise(FULL)));
    let text = '';
    await model().stream(request, (d) => {
      text += d.content ?? '';
    });
    expect(text).toBe(TEXT);
  });
});

describe('Bedrock ADV-2 line endings', () => {
  test('ADV-2 CR, LF and CRLF inside text payloads pass through unchanged (binary framing has no lines)', async () => {
    const pieces = ['A\r\n', 'B\r', '\n', 'C\r\n', '\n', 'first\r\nsecond\n\n', '\rlone CR'];
    const deltas: Delta[] = [];
    const response = await replayer()(bytewise(textStream(pieces)), (d) => {
      deltas.push(d);
    });
    expect(deltas).toEqual(pieces.map((content) => ({ content })));
    expect(response.message.content).toBe(pieces.join(''));
  });
});

describe('Bedrock ADV-3 truncated and malformed streams', () => {
  const bin = ownStream('text.stream.jsonl');
  const ends = frameEnds(bin);
  /** Where frame `i` ends (negative counts from the last frame). */
  const end = (i: number): number => {
    const value = ends.at(i);
    if (value === undefined) throw new Error(`no frame ${i}`);
    return value;
  };

  test('ADV-3 EOF in the middle of a frame → retryable StreamInterruptedError; earlier deltas were delivered', async () => {
    const { server, model } = harness.current;
    const cut = (end(5) + end(6)) >> 1;
    server.push(streamReply(bin.subarray(0, cut)));
    const deltas: Delta[] = [];
    const error = await rejection(model().stream(request, (d) => void deltas.push(d)));
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'bedrock: stream interrupted: the event stream ended in the middle of a frame',
    );
    expect(isRetryable(error)).toBe(true);
    expect(deltas.map((d) => d.content)).toEqual([
      'Lighthouses',
      ' use',
      ' Fresnel',
      ' lenses',
      ' to focus',
    ]);
  });

  test('ADV-3 a connection reset mid-stream → retryable StreamInterruptedError', async () => {
    const { server, model } = harness.current;
    server.push(streamReply([bin.subarray(0, end(3)), bin.subarray(end(3), end(3) + 7)], true));
    const error = await rejection(model().stream(request, () => undefined));
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(true);
  });

  test('ADV-3 PA-6 a clean EOF at a frame boundary before messageStop → StreamInterruptedError, never a short success', async () => {
    const { server, model } = harness.current;
    const beforeStop = end(-3); // …contentBlockStop | messageStop | metadata
    server.push(streamReply(bin.subarray(0, beforeStop)));
    const error = await rejection(model().stream(request, () => undefined));
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'bedrock: stream interrupted: the event stream ended before messageStop',
    );
  });

  test('ADV-3 a stream that ends right after messageStop (no metadata) succeeds with zero usage', async () => {
    const { server, model } = harness.current;
    server.push(streamReply(bin.subarray(0, end(-2))));
    const response = await model().stream(request, () => undefined);
    expect(response.finishReason).toBe('stop');
    expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  test('ADV-3 invalid JSON in an event payload → ModelProtocolError, never a raw SyntaxError', async () => {
    const { server, model } = harness.current;
    server.push(
      streamReply(
        frames(
          eventFrame('messageStart', { role: 'assistant' }),
          eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'ok' } }),
          rawEventFrame('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"x"'),
        ),
      ),
    );
    const error = await rejection(model().stream(request, () => undefined));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(error).not.toBeInstanceOf(SyntaxError);
    expect(isRetryable(error)).toBe(false);
  });

  test('ADV-3 a frame whose CRC does not match → ModelProtocolError', async () => {
    const { server, model } = harness.current;
    const corrupt = Buffer.from(bin);
    const at = end(2) + 20;
    corrupt.writeUInt8(corrupt.readUInt8(at) ^ 0xff, at);
    server.push(streamReply(corrupt));
    const error = await rejection(model().stream(request, () => undefined));
    expect(ModelProtocolError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/^bedrock: protocol error: .*checksum/);
  });

  test('ADV-3 unknown event types are ignored', async () => {
    const { server, model } = harness.current;
    server.push(
      streamReply(
        frames(
          eventFrame('messageStart', { role: 'assistant' }),
          eventFrame('futureEvent', { anything: true }),
          eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'hi' } }),
          eventFrame('contentBlockDelta', {
            contentBlockIndex: 0,
            delta: { futureDelta: { x: 1 } },
          }),
          eventFrame('messageStop', { stopReason: 'end_turn' }),
        ),
      ),
    );
    const response = await model().stream(request, () => undefined);
    expect(response.message).toEqual({ role: 'assistant', content: 'hi' });
  });

  test('ADV-3 tool input for a block that never started → ModelProtocolError', async () => {
    const { server, model } = harness.current;
    server.push(
      streamReply(
        frames(
          eventFrame('messageStart', { role: 'assistant' }),
          eventFrame('contentBlockDelta', {
            contentBlockIndex: 0,
            delta: { toolUse: { input: '{}' } },
          }),
          eventFrame('messageStop', { stopReason: 'tool_use' }),
        ),
      ),
    );
    const error = await rejection(model().stream(request, () => undefined));
    expect((error as Error).message).toBe(
      'bedrock: protocol error: tool input for content block 0 arrived without its contentBlockStart',
    );
  });
});

describe('Bedrock ADV-4 oversized frames', () => {
  const big = frames(
    eventFrame('messageStart', { role: 'assistant' }),
    eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'x'.repeat(300) } }),
    eventFrame('messageStop', { stopReason: 'end_turn' }),
  );

  test.each([
    ['as one chunk', [big]],
    ['in 1-byte chunks', bytewise(big)],
  ])(
    'ADV-4 a frame over the cap (256 bytes), %s → ModelProtocolError, upstream closed',
    async (_, chunks) => {
      const handler = new ScriptedHandler(chunks);
      const model = harness.current.model({
        client: handler.clientConfig(),
        maxFrameBytes: 256,
      });
      const deltas: Delta[] = [];
      const error = await rejection(model.stream(request, (d) => void deltas.push(d)));
      expect(ModelProtocolError.is(error)).toBe(true);
      const [first, second] = frameEnds(big);
      expect((error as Error).message).toBe(
        `bedrock: protocol error: an event-stream frame declares ${second! - first!} bytes, over the 256-byte cap; the stream was cancelled`,
      );
      expect(deltas).toEqual([]);
      expect(handler.outcome).toBe('closed');
      if (chunks.length > 1) expect(handler.delivered).toBeLessThan(chunks.length);
    },
  );

  test('ADV-4 a hostile 4 GiB length prefix is refused before the SDK allocates it', async () => {
    const prelude = Buffer.alloc(16);
    prelude.writeUInt32BE(0xfffffff0, 0);
    const handler = new ScriptedHandler([prelude]);
    const model = harness.current.model({ client: handler.clientConfig() });
    const error = await rejection(model.stream(request, () => undefined));
    expect((error as Error).message).toBe(
      'bedrock: protocol error: an event-stream frame declares 4294967280 bytes, over the 16777216-byte cap; the stream was cancelled',
    );
  });

  test('ADV-4 a frame declaring fewer bytes than a prelude → ModelProtocolError', async () => {
    const handler = new ScriptedHandler([Buffer.from([0, 0, 0, 3, 0, 0, 0, 0])]);
    const model = harness.current.model({ client: handler.clientConfig() });
    const error = await rejection(model.stream(request, () => undefined));
    expect((error as Error).message).toBe(
      'bedrock: protocol error: an event-stream frame declares 3 bytes, below the 16-byte minimum',
    );
  });
});
