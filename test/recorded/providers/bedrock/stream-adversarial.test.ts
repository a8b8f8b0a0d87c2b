/**
 * Adversarial cases 1 and 3 on the recorded b02 ConverseStream capture (binary AWS framing,
 * decoded by the real SDK): arbitrary splits, truncation at and inside frames, a corrupt frame.
 */
import fc from 'fast-check';
import { isRetryable, type Delta, type ModelRequest, type ModelResponse } from 'golem';
import type { BedrockModel } from 'golem/providers/bedrock';
import { ScriptedHandler, splitAt } from '../../../src/providers/bedrock/scripted-handler';
import {
  frameEnds,
  rejection,
  streamReply,
  useHarness,
} from '../../../src/providers/bedrock/support';
import { fixtureBytes } from './recorded';
import { ModelProtocolError, StreamInterruptedError } from '../../../support/internal-errors';

const harness = useHarness();
const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

/** One model on one in-process handler, reused across the (many) replays of a test. */
function replayer(): (
  chunks: readonly Uint8Array[],
) => Promise<{ text: string; response: ModelResponse }> {
  const handler = new ScriptedHandler([]);
  const model: BedrockModel = harness.current.model({ client: handler.clientConfig() });
  return async (chunks) => {
    handler.chunks = chunks;
    let text = '';
    const response = await model.stream(request, (d) => {
      text += d.content ?? '';
    });
    return { text, response };
  };
}

describe('Bedrock ADV-1 on the recorded b02 stream', () => {
  test('ADV-1 fast-check: the recorded b02 stream cut at arbitrary offsets assembles the same response', async () => {
    const bin = fixtureBytes('b02-text.stream.eventstream.bin');
    const streamed = replayer();
    const whole = await streamed([bin]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: bin.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const split = await streamed(splitAt(bin, cuts));
          expect(split.response).toEqual(whole.response);
          expect(split.text).toBe(whole.response.message.content);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});

describe('Bedrock ADV-3 on the recorded b02 stream', () => {
  const bin = fixtureBytes('b02-text.stream.eventstream.bin');
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
      'The',
      ' capital of France is Paris.',
      ' Paris is not',
      ' only the capital city but',
      ' also the most',
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
});
