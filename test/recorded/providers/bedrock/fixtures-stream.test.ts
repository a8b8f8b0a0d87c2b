/**
 * Every recorded ConverseStream fixture (b02, b04, b06, b08, b10: binary AWS event-streams,
 * byte-exact) through `stream`, decoded by the real SDK: exact request body and path, the deltas,
 * the assembled response, and parity with `generate` on the same content.
 */
import type { Delta, ModelResponse } from 'golem';
import { expectedBody, requestFromRecording } from './recorded-request';
import { jsonReply, streamReply, useHarness } from '../../../src/providers/bedrock/support';
import { expectedOf, expectedResponse, fixtureBytes, recordedHttp } from './recorded';
import { recordedView } from '../../recorded-view';

const harness = useHarness();

const cases = [
  ['b02-text.stream', 'plain text, 29 deltas'],
  ['b04-tool-call.stream', 'text then a toolUse'],
  ['b06-parallel-tool-calls.stream', 'text then two parallel toolUse blocks'],
  ['b08-structured-output.stream', 'native structured output'],
  ['b10-reasoning.stream', 'reasoning text + signature deltas, then text'],
] as const;

interface RecordedEvent {
  headers: Record<string, string>;
  payload: Record<string, unknown>;
}

function recordedEvents(base: string): RecordedEvent[] {
  return fixtureBytes(`${base}.events.jsonl`)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RecordedEvent);
}

/** The non-streaming Converse body carrying the same content as a recorded stream. */
function converseBodyOf(base: string): string {
  const blocks = new Map<number, Record<string, unknown>>();
  const inputs = new Map<number, string>();
  let stopReason: unknown;
  let usage: unknown;
  for (const { headers, payload } of recordedEvents(base)) {
    const index = payload.contentBlockIndex as number;
    const type = headers[':event-type'];
    if (type === 'contentBlockStart') {
      const start = payload.start as { toolUse: { toolUseId: string; name: string } };
      blocks.set(index, { toolUse: { ...start.toolUse } });
    } else if (type === 'contentBlockDelta') {
      const delta = payload.delta as {
        text?: string;
        toolUse?: { input: string };
        reasoningContent?: { text?: string; signature?: string };
      };
      if (delta.text !== undefined) {
        const block = blocks.get(index) ?? { text: '' };
        block.text = `${block.text as string}${delta.text}`;
        blocks.set(index, block);
      } else if (delta.toolUse !== undefined) {
        inputs.set(index, (inputs.get(index) ?? '') + delta.toolUse.input);
      } else if (delta.reasoningContent !== undefined) {
        const block = blocks.get(index) ?? { reasoningContent: { reasoningText: { text: '' } } };
        const reasoning = (block.reasoningContent as { reasoningText: Record<string, string> })
          .reasoningText;
        if (delta.reasoningContent.text !== undefined)
          reasoning.text = (reasoning.text ?? '') + delta.reasoningContent.text;
        if (delta.reasoningContent.signature !== undefined)
          reasoning.signature = delta.reasoningContent.signature;
        blocks.set(index, block);
      }
    } else if (type === 'messageStop') {
      stopReason = payload.stopReason;
    } else if (type === 'metadata') {
      usage = payload.usage;
    }
  }
  for (const [index, input] of inputs)
    (blocks.get(index)!.toolUse as Record<string, unknown>).input = JSON.parse(input);
  const content = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  return JSON.stringify({ output: { message: { role: 'assistant', content } }, stopReason, usage });
}

async function streamFixture(base: string): Promise<{ deltas: Delta[]; response: ModelResponse }> {
  const { server, model } = harness.current;
  server.push(streamReply(fixtureBytes(`${base}.eventstream.bin`)));
  const deltas: Delta[] = [];
  const response = await model({ model: expectedOf(base).model }).stream(
    requestFromRecording(base),
    (delta) => {
      deltas.push(delta);
    },
  );
  return { deltas, response };
}

/** The adapter and configured model the stamps of a replayed fixture must name. */
const bedrockOrigin = (base: string) => ({ provider: 'bedrock', model: expectedOf(base).model });

describe('recorded ConverseStream fixtures through stream', () => {
  test.each(cases)('%s (%s): exact body and path, assembled response as expected', async (base) => {
    const { response } = await streamFixture(base);
    expect(recordedView(response, bedrockOrigin(base))).toEqual(expectedResponse(base));
    const sent = harness.current.server.requests;
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(recordedHttp(base).path);
    expect(sent[0]!.url.endsWith('/converse-stream')).toBe(true);
    expect(sent[0]!.json).toEqual(expectedBody(base));
    expect(sent[0]!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=/);
  });

  test.each(cases)(
    '%s: the deltas concatenate to the assembled text, calls and thinking',
    async (base) => {
      const { deltas, response } = await streamFixture(base);
      const expected = expectedResponse(base);
      expect(deltas.map((d) => d.content ?? '').join('')).toBe(expected.message.content ?? '');
      const calls = new Map<number, { id?: string; name?: string; args: string }>();
      for (const d of deltas.flatMap((delta) => delta.toolCalls ?? [])) {
        const call = calls.get(d.index) ?? { args: '' };
        if (d.id !== undefined) call.id = d.id;
        if (d.name !== undefined) call.name = d.name;
        call.args += d.argsFragment ?? '';
        calls.set(d.index, call);
      }
      expect([...calls.values()]).toEqual(expected.message.toolCalls ?? []);
      const thinking = new Map<number, { text: string; signature: string }>();
      for (const d of deltas.flatMap((delta) => delta.thinking ?? [])) {
        const block = thinking.get(d.index) ?? { text: '', signature: '' };
        block.text += d.text ?? '';
        block.signature += d.signature ?? '';
        thinking.set(d.index, block);
      }
      // Deltas carry no provenance; the assembled blocks do (checked by the recorded view).
      const blocks = (expected.message.thinking ?? []).map((b) => ({
        text: b.text,
        signature: b.signature,
      }));
      expect([...thinking.values()]).toEqual(blocks);
      expect(recordedView(response, bedrockOrigin(base))).toEqual(expected);
    },
  );

  test.each(cases)(
    '%s: the assembled response equals generate on the same content',
    async (base) => {
      const { response } = await streamFixture(base);
      const { server, model } = harness.current;
      server.push(jsonReply(converseBodyOf(base)));
      const generated = await model({ model: expectedOf(base).model }).generate(
        requestFromRecording(base),
      );
      expect(response).toEqual(generated);
      expect(server.requests[1]!.url).toBe(recordedHttp(base).path.replace(/-stream$/, ''));
    },
  );

  test('b02 emits one content delta per recorded text delta, in order', async () => {
    const { deltas } = await streamFixture('b02-text.stream');
    expect(deltas).toHaveLength(29);
    expect(deltas.slice(0, 3)).toEqual([
      { content: 'The' },
      { content: ' capital of France is Paris.' },
      { content: ' Paris is not' },
    ]);
  });

  test('b04 tool call: {index 0, id, name} first, then the whole input in one fragment', async () => {
    const { deltas } = await streamFixture('b04-tool-call.stream');
    expect(deltas.filter((d) => d.toolCalls !== undefined)).toEqual([
      { toolCalls: [{ index: 0, id: 'tooluse_lAG_zP8QRHmSYOwZzzaCqA', name: 'get_temperature' }] },
      { toolCalls: [{ index: 0, argsFragment: '{"city":"Paris"}' }] },
    ]);
  });

  test('b06 parallel calls are indexed 0 and 1 (positions, not content-block indexes 1 and 2)', async () => {
    const { deltas } = await streamFixture('b06-parallel-tool-calls.stream');
    expect(deltas.flatMap((d) => d.toolCalls ?? [])).toEqual([
      { index: 0, id: 'tooluse_jmYwyYtsQxiOee3FyiEBog', name: 'secret_retrieval_tool' },
      { index: 0, argsFragment: '{"password":"mellon"}' },
      { index: 1, id: 'tooluse_wwdyV5DhQ4yhJbQiWcoZmw', name: 'secret_retrieval_tool' },
      { index: 1, argsFragment: '{"password":"radiance"}' },
    ]);
  });

  test('TK-4 b10 thinking deltas (text, then the signature) all precede the first content delta', async () => {
    const { deltas } = await streamFixture('b10-reasoning.stream');
    const firstContent = deltas.findIndex((d) => d.content !== undefined);
    const thinkingAt = deltas.flatMap((d, i) => (d.thinking === undefined ? [] : [i]));
    expect(thinkingAt.length).toBeGreaterThan(1);
    expect(Math.max(...thinkingAt)).toBeLessThan(firstContent);
    const last = deltas[thinkingAt[thinkingAt.length - 1]!]!;
    expect(last.thinking).toEqual([
      { index: 0, signature: expectedOf('b10-reasoning.stream').reasoning[0]!.signature },
    ]);
  });
});
