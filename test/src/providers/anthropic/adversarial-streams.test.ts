/**
 * Adversarial cases 1–2 (spec/adversarial-cases.md) against the Anthropic streaming adapter:
 * UTF-8 split at every byte offset and CR/LF/CRLF boundaries. Most splits go through an injected
 * fetch whose body is a pull-based stream (the whole adapter path, no socket); one also goes
 * through the loopback server.
 */
import fc from 'fast-check';
import type { Delta } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { startReplayServer } from '../../../support/replay-server';
import { encoder, hasReplacement, request, splitAt, streamChunks } from './chunked-fetch';
import { API_KEY, ownFixture, sse, sseReply } from './support';

describe('ADV-1 UTF-8 split at every byte offset', () => {
  const unicode = encoder.encode(ownFixture('unicode-thinking-tool.stream.sse'));

  test('ADV-1 the unsplit unicode stream (CJK, emoji ZWJ, RTL) assembles as expected', async () => {
    const { response } = await streamChunks([unicode]);
    expect(response.message).toEqual({
      role: 'assistant',
      content: '東京の天気を調べます 👩‍👩‍👧‍👦 مرحبا بالعالم 🏳️‍🌈 ok.',
      thinking: [
        {
          text: '用户问天气 🌦️ — שלום, check the tool.',
          signature: 'c2lnbmF0dXJlLW93bi1maXh0dXJl',
          provider: 'anthropic',
          model: 'm',
        },
      ],
      toolCalls: [{ id: 'toolu_own_1', name: 'get_weather', args: '{"city":"東京","note":"☔️"}' }],
    });
  });

  /** A compact stream (data-only frames) with CJK, emoji ZWJ and RTL text, thinking and args. */
  const compact = encoder.encode(
    [
      '{"type":"message_start","message":{"model":"m"}}',
      '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"想 🌦️"}}',
      '{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}',
      '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"東京 👩‍👩‍👧‍👦 مرحبا 🏳️‍🌈"}}',
      '{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t","name":"f"}}',
      '{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"c\\": \\"☔️ שלום\\"}"}}',
      '{"type":"content_block_stop","index":2}',
      '{"type":"message_stop"}',
    ]
      .map((payload) => `data: ${payload}\n\n`)
      .join(''),
  );

  test('ADV-1 split into two chunks at every offset: identical response and deltas, no U+FFFD', async () => {
    const whole = await streamChunks([compact]);
    expect(whole.response.message).toEqual({
      role: 'assistant',
      content: '東京 👩‍👩‍👧‍👦 مرحبا 🏳️‍🌈',
      thinking: [{ text: '想 🌦️', provider: 'anthropic', model: 'm' }],
      toolCalls: [{ id: 't', name: 'f', args: '{"c":"☔️ שלום"}' }],
    });
    for (let offset = 1; offset < compact.length; offset++) {
      const split = await streamChunks(splitAt(compact, [offset]));
      if (!(JSON.stringify(split) === JSON.stringify(whole)) || hasReplacement(split))
        throw new Error(`split at byte ${offset} changed the output`);
    }
    expect(hasReplacement(whole)).toBe(false);
  }, 30_000);

  test('ADV-1 the unicode fixture split at random offsets (fast-check) is unchanged', async () => {
    const whole = JSON.stringify(await streamChunks([unicode]));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: unicode.length - 1 }), { minLength: 1, maxLength: 60 }),
        async (offsets) => {
          const split = await streamChunks(splitAt(unicode, offsets));
          expect(JSON.stringify(split)).toBe(whole);
          expect(hasReplacement(split)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  }, 30_000);

  test('ADV-1 one byte per read through the loopback server gives the identical response', async () => {
    const whole = await streamChunks([unicode]);
    const server = await startReplayServer([
      sseReply(Array.from(unicode, (byte) => new Uint8Array([byte]))),
    ]);
    try {
      const deltas: Delta[] = [];
      const response = await anthropic({ model: 'm', apiKey: API_KEY, baseURL: server.url }).stream(
        request,
        (d) => void deltas.push(d),
      );
      expect(response).toEqual(whole.response);
      expect(deltas.map((d) => d.content ?? '').join('')).toBe(whole.response.message.content);
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe('ADV-2 CR / LF / CRLF boundaries', () => {
  const lf = ownFixture('unicode-thinking-tool.stream.sse');

  test.each([
    ['CRLF', lf.replace(/\n/g, '\r\n')],
    ['CR', lf.replace(/\n/g, '\r')],
    ['mixed', lf.replace(/\n\n/g, '\r\n\n').replace(/\ndata:/g, '\rdata:')],
  ])('ADV-2 %s line endings assemble the same response as LF', async (_label, text) => {
    const expected = await streamChunks([encoder.encode(lf)]);
    expect(await streamChunks([encoder.encode(text)])).toEqual(expected);
  });

  test('ADV-2 CRLF split between CR and LF at every offset changes nothing', async () => {
    const crlf = encoder.encode(lf.replace(/\n/g, '\r\n'));
    const whole = JSON.stringify(await streamChunks([crlf]));
    for (let offset = 1; offset < crlf.length; offset++)
      if (crlf[offset - 1] === 0x0d) {
        const split = JSON.stringify(await streamChunks(splitAt(crlf, [offset])));
        if (split !== whole) throw new Error(`split after CR at ${offset} changed the output`);
      }
  });

  test("ADV-2 'data: A\\r\\n', 'data: B\\r', '\\n', 'data: C\\r\\n', '\\n' is exactly one event with data A\\nB\\nC", async () => {
    const head = sse(
      { type: 'message_start', message: { model: 'm' } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    );
    const chunks = [
      head,
      'data: {"type":"content_block_delta",\r\n',
      'data: "index":0,\r',
      '\n',
      'data: "delta":{"type":"text_delta","text":"ABC"}}\r\n',
      '\n',
      'data: {"type":"message_stop"}\r\n\r\n',
    ].map((c) => encoder.encode(c));
    const { response, deltas } = await streamChunks(chunks);
    expect([deltas, response.message.content]).toEqual([[{ content: 'ABC' }], 'ABC']);
  });
});
