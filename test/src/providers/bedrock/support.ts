/**
 * Test support for the Bedrock adapter: our own fixtures (written from the documented Converse
 * shapes; the recorded ones are read only by test/recorded), a replay server with a real
 * BedrockRuntimeClient pointed at it (HTTP/1.1 handler, fake static credentials: the SDK signs
 * with SigV4 and decodes event streams for real), and event-stream frames written with the
 * SDK's own codec.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { bedrock, type BedrockModel, type BedrockOptions } from 'golem/providers/bedrock';
import { startReplayServer, type Reply, type ReplayServer } from '../../../support/replay-server';

/** Fake static credentials; the secret must never show up in an error. */
export const CREDENTIALS = {
  accessKeyId: 'AKIDGOLEMTESTKEY',
  secretAccessKey: 'golemTestSecret/NOT+REAL/0123456789abcdef',
};

export const EVENT_STREAM = 'application/vnd.amazon.eventstream';

/** A replay server plus the models built against it, torn down after each test. */
export interface Harness {
  server: ReplayServer;
  /** A Bedrock model pointed at the server through the real SDK client. */
  model(options?: Partial<BedrockOptions>): BedrockModel;
}

/** Registers beforeEach/afterEach hooks and returns a live view of the current harness. */
export function useHarness(): { readonly current: Harness } {
  const state: { current?: Harness; models: BedrockModel[] } = { models: [] };
  beforeEach(async () => {
    const server = await startReplayServer();
    state.current = {
      server,
      model: (options = {}) => {
        const model = bedrock({
          model: 'us.amazon.nova-micro-v1:0',
          region: 'us-east-1',
          endpoint: server.url,
          credentials: CREDENTIALS,
          client: { requestHandler: new NodeHttpHandler() },
          ...options,
        });
        state.models.push(model);
        return model;
      },
    };
  });
  afterEach(async () => {
    for (const model of state.models.splice(0)) model.destroy();
    await state.current?.server.close().catch(() => undefined); // a test may have closed it
  });
  return {
    get current(): Harness {
      if (state.current === undefined) throw new Error('harness used outside a test');
      return state.current;
    },
  };
}

/** A JSON reply (Bedrock's error replies carry `x-amzn-errortype`). */
export function jsonReply(
  body: string | Uint8Array,
  status = 200,
  headers: Record<string, string> = {},
): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body };
}

/** An event-stream reply: the whole body, or separate writes; `reset` destroys the socket after. */
export function streamReply(body: Uint8Array | readonly Uint8Array[], reset = false): Reply {
  const headers = { 'content-type': EVENT_STREAM };
  if (body instanceof Uint8Array)
    return reset ? { headers, chunks: [body], reset } : { headers, body };
  return { headers, chunks: body, reset };
}

const utf8 = {
  encode: (text: string): Uint8Array => new TextEncoder().encode(text),
  decode: (bytes: Uint8Array): string => new TextDecoder().decode(bytes),
};

/** The SDK's own event-stream codec (CRC32 prelude and message checksums). */
export const codec = new EventStreamCodec(utf8.decode, utf8.encode);

function frame(headers: Record<string, string>, body: string): Uint8Array {
  const typed = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, { type: 'string' as const, value: v }]),
  );
  return codec.encode({ headers: typed, body: utf8.encode(body) });
}

/** One `:message-type: event` frame with a JSON payload. */
export function eventFrame(type: string, payload: unknown): Uint8Array {
  return frame(
    { ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' },
    JSON.stringify(payload),
  );
}

/** One event frame whose payload is the given raw text (for malformed JSON). */
export function rawEventFrame(type: string, payload: string): Uint8Array {
  return frame(
    { ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' },
    payload,
  );
}

/** One modelled `:message-type: exception` frame (throttlingException, …). */
export function exceptionFrame(type: string, payload: unknown): Uint8Array {
  return frame(
    { ':exception-type': type, ':content-type': 'application/json', ':message-type': 'exception' },
    JSON.stringify(payload),
  );
}

/** Concatenated frames. */
export function frames(...parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts);
}

/** Byte offsets where each frame of a well-formed event stream ends. */
export function frameEnds(stream: Uint8Array): number[] {
  const ends: number[] = [];
  let offset = 0;
  while (offset + 4 <= stream.length) {
    offset += new DataView(stream.buffer, stream.byteOffset + offset, 4).getUint32(0, false);
    ends.push(offset);
  }
  return ends;
}

/** A simple complete text stream: messageStart, text deltas, stops, metadata. */
export function textStream(
  pieces: readonly string[],
  usage = { inputTokens: 3, outputTokens: 5 },
): Buffer {
  return frames(
    eventFrame('messageStart', { role: 'assistant' }),
    ...pieces.map((text) =>
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text } }),
    ),
    eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
    eventFrame('messageStop', { stopReason: 'end_turn' }),
    eventFrame('metadata', {
      usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
      metrics: { latencyMs: 1 },
    }),
  );
}

/** The error `promise` rejects with (fails when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** Raw bytes of one of our own fixtures (test/src/providers/bedrock/fixtures). */
export function ownFixture(file: string): Buffer {
  return readFileSync(join(__dirname, 'fixtures', file));
}

/**
 * One of our own ConverseStream fixtures — a `*.stream.jsonl` of `{event, payload}` lines written
 * from the documented event shapes — encoded as the binary event stream the service sends.
 */
export function ownStream(file: string): Buffer {
  const lines = ownFixture(file)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  return frames(
    ...lines.map((line) => {
      const { event, payload } = JSON.parse(line) as { event: string; payload: unknown };
      return eventFrame(event, payload);
    }),
  );
}
