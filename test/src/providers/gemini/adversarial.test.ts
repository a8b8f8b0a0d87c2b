/** Adversarial stream cases 1–4 (../shared/spec/adversarial-cases.md) through the Gemini adapter. */
import fc from 'fast-check';
import { ModelHTTPError, type Delta, type ModelResponse } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { gemini } from 'golem/providers/gemini';

import { startReplayServer } from '../../../support/replay-server';
import { API_KEY, chunk, rejection, request, sse, sseReply } from './helpers';

import {
  ModelProtocolError,
  SseLineTooLongError,
  StreamInterruptedError,
} from '../../../support/internal-errors';
const encoder = new TextEncoder();

interface Feed {
  pulled: number;
  cancelled: boolean;
}

/** A model whose `fetch` answers 200 with `chunks` as the body, one read per chunk. */
function modelOver(
  chunks: readonly Uint8Array[],
  feed: Feed = { pulled: 0, cancelled: false },
  maxLineBytes?: number,
) {
  const fetch = () => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks[i++];
        if (next === undefined) controller.close();
        else {
          feed.pulled += next.length;
          controller.enqueue(next);
        }
      },
      cancel() {
        feed.cancelled = true;
      },
    });
    return Promise.resolve(new Response(body, { status: 200 }));
  };
  return gemini({ model: 'gemini-2.5-flash', apiKey: API_KEY, fetch, maxLineBytes });
}

async function streamOver(chunks: readonly Uint8Array[], feed?: Feed, maxLineBytes?: number) {
  const deltas: Delta[] = [];
  const response = await modelOver(chunks, feed, maxLineBytes).stream(
    request([userMessage('q')]),
    (delta) => {
      deltas.push(delta);
    },
  );
  return { response, deltas };
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    out.push(bytes.slice(from, point));
    from = point;
  }
  return out;
}

const TEXTS = ['漢字とかな、', '👩‍👩‍👧‍👦 family ', 'مرحبا بالعالم ', 'שלום ', '🇳🇬 ok ✓'];
const BODY = encoder.encode(
  sse(
    chunk([{ text: 'Thinking about 思考 🤔', thought: true }]),
    ...TEXTS.slice(0, -1).map((text) => chunk([{ text }])),
    chunk([{ text: TEXTS.at(-1) }], {
      finishReason: 'STOP',
      usage: { promptTokenCount: 5, candidatesTokenCount: 9 },
    }),
  ),
);

describe('ADV-1 UTF-8 split at every byte offset', () => {
  let whole: ModelResponse;
  beforeAll(async () => {
    whole = (await streamOver([BODY])).response;
    expect(whole.message.content).toBe(TEXTS.join(''));
  });

  test('ADV-1 every single split point gives the identical response, no U+FFFD', async () => {
    for (let cut = 1; cut < BODY.length; cut++) {
      const { response, deltas } = await streamOver(splitAt(BODY, [cut]));
      expect(response).toEqual(whole);
      expect(JSON.stringify(deltas)).not.toContain('\uFFFD');
    }
  });

  test('ADV-1 random multi-way splits (fast-check) give the identical response', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: BODY.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const { response, deltas } = await streamOver(splitAt(BODY, cuts));
          expect(response).toEqual(whole);
          expect(deltas.map((d) => d.content ?? '').join('')).toBe(TEXTS.join(''));
        },
      ),
      { numRuns: 150 },
    );
  });

  test('ADV-1 one byte per TCP write through the replay server', async () => {
    const server = await startReplayServer([
      sseReply([...BODY].map((byte) => Uint8Array.of(byte))),
    ]);
    try {
      const model = gemini({ model: 'gemini-2.5-flash', apiKey: API_KEY, baseURL: server.url });
      expect(await model.stream(request([userMessage('q')]), () => undefined)).toEqual(whole);
    } finally {
      await server.close();
    }
  });
});

describe('ADV-2 CR / LF / CRLF boundaries', () => {
  const bytes = (...parts: string[]) => parts.map((p) => encoder.encode(p));
  const line1 = '{"candidates": [{"content": {"parts": [{"text": "A"}]},';
  const line2 = '"finishReason":';
  const line3 = '"STOP"}]}';

  test('ADV-2 data lines ended by CRLF, CR and CR+LF split across chunks form one event', async () => {
    const { response, deltas } = await streamOver(
      bytes(`data: ${line1}\r\n`, `data: ${line2}\r`, '\n', `data: ${line3}\r\n`, '\n'),
    );
    expect(deltas).toEqual([{ content: 'A' }]);
    expect(response.finishReason).toBe('stop');
  });

  test('ADV-2 mixed endings in one chunk and standalone CR give exactly the spec events', async () => {
    const first = JSON.stringify(chunk([{ text: 'first ' }]));
    const second = JSON.stringify(chunk([{ text: 'second ' }]));
    const third = JSON.stringify(chunk([{ text: 'third' }], { finishReason: 'STOP' }));
    const { response, deltas } = await streamOver(
      bytes(`data: ${first}\r\n\r\ndata: ${second}\r\rdata: ${third}\n\n`),
    );
    expect(deltas).toEqual([{ content: 'first ' }, { content: 'second ' }, { content: 'third' }]);
    expect(response.message.content).toBe('first second third');
  });

  test('ADV-2 a CR-only stream keeps its last event (the one with the finishReason)', async () => {
    const text = JSON.stringify(chunk([{ text: 'cr ' }]));
    const last = JSON.stringify(chunk([{ text: 'only' }], { finishReason: 'STOP' }));
    const { response } = await streamOver(bytes(`data: ${text}\r\rdata: ${last}\r`, '\r'));
    expect(response.message.content).toBe('cr only');
    expect(response.finishReason).toBe('stop');
  });
});

describe('ADV-3 truncated and malformed streams', () => {
  const done = JSON.stringify(chunk([{ text: 'X' }], { finishReason: 'STOP' }));

  test('ADV-3 a connection reset mid-event: typed, retryable, the partial event not dispatched', async () => {
    const server = await startReplayServer([
      sseReply([sse(chunk([{ text: 'kept' }])), `data: ${done}`], true),
    ]);
    try {
      const deltas: Delta[] = [];
      const model = gemini({ model: 'gemini-2.5-flash', apiKey: API_KEY, baseURL: server.url });
      const error = await rejection(
        model.stream(request([userMessage('q')]), (d) => {
          deltas.push(d);
        }),
      );
      expect(StreamInterruptedError.is(error)).toBe(true);
      expect((error as StreamInterruptedError).retryable).toBe(true);
      expect(deltas).toEqual([{ content: 'kept' }]);
    } finally {
      await server.close();
    }
  });

  test('ADV-3 EOF without the blank line: the unterminated event is not dispatched', async () => {
    const deltas: Delta[] = [];
    const error = await rejection(
      modelOver([encoder.encode(`data: ${done}\n`)]).stream(request([userMessage('q')]), (d) => {
        deltas.push(d);
      }),
    );
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect(deltas).toEqual([]);
  });

  test('ADV-3 a data frame with invalid JSON is a ModelProtocolError, never a raw SyntaxError', async () => {
    const error = await rejection(
      modelOver([encoder.encode('data: {"candidates": [tru\n\n')]).stream(
        request([userMessage('q')]),
        () => undefined,
      ),
    );
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(error).not.toBeInstanceOf(SyntaxError);
  });

  test('ADV-3 BOM, comments, retry lines and unknown event types are ignored', async () => {
    const { response, deltas } = await streamOver([
      encoder.encode(
        '\uFEFF: ping\n\nretry: 50x\n\nevent: ping\ndata: {"not": "a chunk"}\n\n' +
          `data: ${done}\n\n`,
      ),
    ]);
    expect(deltas).toEqual([{ content: 'X' }]);
    expect(response.finishReason).toBe('stop');
  });

  test('ADV-3 a provider error frame is a typed ModelHTTPError', async () => {
    const error = await rejection(
      modelOver([
        encoder.encode(
          sse({ error: { code: 500, message: 'Internal error', status: 'INTERNAL' } }),
        ),
      ]).stream(request([userMessage('q')]), () => undefined),
    );
    expect(ModelHTTPError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL', retryable: true });
  });
});

describe('ADV-4 oversized line', () => {
  const CAP = 1024;
  const line = encoder.encode(
    `data: {"candidates": [{"content": {"parts": [{"text": "${'x'.repeat(4 * CAP)}"}]}}]}\n\n`,
  );

  test('ADV-4 one oversized chunk: a typed error before buffering, the body cancelled', async () => {
    const feed = { pulled: 0, cancelled: false };
    const rest = encoder.encode(sse(chunk([{ text: 'never read' }], { finishReason: 'STOP' })));
    const error = await rejection(streamOver([line, rest, rest], feed, CAP));
    expect(SseLineTooLongError.is(error)).toBe(true);
    expect(feed.cancelled).toBe(true);
    expect(feed.pulled).toBeLessThan(line.length + 2 * rest.length);
  });

  test('ADV-4 the same line in 1-byte chunks: stops right after the cap, memory bounded', async () => {
    const feed = { pulled: 0, cancelled: false };
    const error = await rejection(
      streamOver(
        [...line].map((byte) => Uint8Array.of(byte)),
        feed,
        CAP,
      ),
    );
    expect(SseLineTooLongError.is(error)).toBe(true);
    expect(feed.cancelled).toBe(true);
    expect(feed.pulled).toBeLessThanOrEqual(CAP + 2);
  });

  test('ADV-4 through the replay server: the stream is cancelled with a typed error', async () => {
    const server = await startReplayServer([sseReply([line])]);
    try {
      const model = gemini({
        model: 'gemini-2.5-flash',
        apiKey: API_KEY,
        baseURL: server.url,
        maxLineBytes: CAP,
      });
      const error = await rejection(model.stream(request([userMessage('q')]), () => undefined));
      expect(SseLineTooLongError.is(error)).toBe(true);
      expect((error as SseLineTooLongError).retryable).toBe(false);
    } finally {
      await server.close();
    }
  });
});
