/**
 * The Bedrock ConverseStream wire on our own `*.stream.jsonl` fixtures (documented event shapes,
 * encoded as the binary AWS event stream and decoded by the real SDK): text, a toolUse whose input
 * arrives in several deltas, parallel toolUse blocks, structured output and signed reasoning.
 * Each stream must equal `generate` on the Converse body with the same content.
 */
import type { Delta, ModelResponse } from 'golem';
import { wireResponse } from '../../../support/wire-response';
import { jsonReply, ownFixture, ownStream, streamReply, useHarness } from './support';

const harness = useHarness();
const MODEL = 'us.amazon.nova-micro-v1:0';
const request = { messages: [{ role: 'user' as const, content: 'go' }], tools: [] };

async function streamed(file: string): Promise<{ response: ModelResponse; deltas: Delta[] }> {
  const { server, model } = harness.current;
  server.push(streamReply(ownStream(file)));
  const deltas: Delta[] = [];
  const response = await model().stream(request, (d) => void deltas.push(d));
  return { response, deltas };
}

const cases: [string, ModelResponse][] = [
  [
    'text.stream.jsonl',
    {
      message: { role: 'assistant', content: 'Lighthouses use Fresnel lenses to focus light.' },
      usage: { inputTokens: 11, outputTokens: 12 },
      finishReason: 'stop',
      modelName: MODEL,
    },
  ],
  [
    'tool.stream.jsonl',
    {
      message: {
        role: 'assistant',
        content: 'Let me check the timetable.',
        toolCalls: [
          { id: 'tooluse_own_dHJhaW4x', name: 'train_times', args: '{"from":"Lyon","to":"Turin"}' },
        ],
      },
      usage: { inputTokens: 450, outputTokens: 60 },
      finishReason: 'tool_calls',
      modelName: MODEL,
    },
  ],
  [
    'parallel-tools.stream.jsonl',
    {
      message: {
        role: 'assistant',
        content: 'Two lookups.',
        toolCalls: [
          { id: 'tooluse_own_ZWxlMDE', name: 'elevation', args: '{"peak":"Kilimanjaro"}' },
          { id: 'tooluse_own_ZWxlMDI', name: 'elevation', args: '{"peak":"Denali"}' },
        ],
      },
      usage: { inputTokens: 400, outputTokens: 90 },
      finishReason: 'tool_calls',
      modelName: MODEL,
    },
  ],
  [
    'structured-output.stream.jsonl',
    {
      message: { role: 'assistant', content: '{"planet":"Mars","moons":2}' },
      usage: { inputTokens: 190, outputTokens: 14 },
      finishReason: 'stop',
      modelName: MODEL,
    },
  ],
  [
    'reasoning.stream.jsonl',
    {
      message: {
        role: 'assistant',
        content: 'Two squares have eight sides.',
        thinking: [
          {
            text: 'A square has four sides; two squares have eight.',
            signature: 'T3duQmVkcm9ja1N0cmVhbS1zcXVhcmVz',
          },
        ],
      },
      usage: { inputTokens: 28, outputTokens: 55 },
      finishReason: 'stop',
      modelName: MODEL,
    },
  ],
];

describe.each(cases)('%s', (file, expected) => {
  test('assembles to the exact normalised response from POST /model/<id>/converse-stream', async () => {
    const { response } = await streamed(file);
    expect(wireResponse(response)).toEqual(expected);
    expect(harness.current.server.requests[0]?.url).toBe(
      '/model/us.amazon.nova-micro-v1%3A0/converse-stream',
    );
  });

  test('equals what generate returns for the Converse body with the same content', async () => {
    const { response } = await streamed(file);
    harness.current.server.push(jsonReply(converseBody(file)));
    expect(await harness.current.model().generate(request)).toEqual(response);
  });
});

/** One line of a `*.stream.jsonl` fixture. */
interface StreamEvent {
  event: string;
  payload: {
    contentBlockIndex?: number;
    start?: { toolUse?: { toolUseId: string; name: string } };
    delta?: {
      text?: string;
      toolUse?: { input: string };
      reasoningContent?: { text?: string; signature?: string };
    };
    stopReason?: string;
    usage?: unknown;
  };
}

interface Block {
  text?: string;
  tool?: { toolUseId: string; name: string; input: string };
  reasoning?: { text: string; signature: string };
}

/** The Converse response a stream file adds up to: blocks by index, stop reason, usage. */
function converseBody(file: string): string {
  const blocks = new Map<number, Block>();
  let stopReason: string | undefined;
  let usage: unknown;
  const lines = ownFixture(file).toString('utf8').split('\n');
  for (const { event, payload } of lines.filter((l) => l.trim() !== '').map(parseEvent)) {
    const index = payload.contentBlockIndex ?? -1;
    const block = blocks.get(index) ?? {};
    const { start, delta } = payload;
    if (start?.toolUse !== undefined) block.tool = { ...start.toolUse, input: '' };
    if (delta?.text !== undefined) block.text = (block.text ?? '') + delta.text;
    if (delta?.toolUse !== undefined && block.tool) block.tool.input += delta.toolUse.input;
    if (delta?.reasoningContent !== undefined) {
      const reasoning = (block.reasoning ??= { text: '', signature: '' });
      reasoning.text += delta.reasoningContent.text ?? '';
      reasoning.signature += delta.reasoningContent.signature ?? '';
    }
    if (event === 'contentBlockStart' || event === 'contentBlockDelta') blocks.set(index, block);
    if (event === 'messageStop') stopReason = payload.stopReason;
    if (event === 'metadata') usage = payload.usage;
  }
  const content = [...blocks.values()].map((b) => {
    if (b.reasoning) return { reasoningContent: { reasoningText: b.reasoning } };
    if (b.tool) return { toolUse: { ...b.tool, input: JSON.parse(b.tool.input) as unknown } };
    return { text: b.text };
  });
  return JSON.stringify({ output: { message: { role: 'assistant', content } }, stopReason, usage });
}

function parseEvent(line: string): StreamEvent {
  return JSON.parse(line) as StreamEvent;
}

test('a toolUse input in several deltas: {index, id, name} first, then each input fragment as sent', async () => {
  const { deltas } = await streamed('tool.stream.jsonl');
  expect(deltas.flatMap((d) => d.toolCalls ?? [])).toEqual([
    { index: 0, id: 'tooluse_own_dHJhaW4x', name: 'train_times' },
    { index: 0, argsFragment: '{"from":"Ly' },
    { index: 0, argsFragment: 'on","to":"Tur' },
    { index: 0, argsFragment: 'in"}' },
  ]);
  expect(deltas.map((d) => d.content ?? '').join('')).toBe('Let me check the timetable.');
});

test('reasoning text deltas, then the signature as its own fragment, all before the answer text', async () => {
  const { deltas } = await streamed('reasoning.stream.jsonl');
  expect(deltas).toEqual([
    { thinking: [{ index: 0, text: 'A square has four sides;' }] },
    { thinking: [{ index: 0, text: ' two squares have eight.' }] },
    { thinking: [{ index: 0, signature: 'T3duQmVkcm9ja1N0cmVhbS1zcXVhcmVz' }] },
    { content: 'Two squares' },
    { content: ' have eight sides.' },
  ]);
});
