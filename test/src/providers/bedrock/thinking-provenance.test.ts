/**
 * Bedrock and thinking provenance: decoded reasoning records `bedrock` and the model id
 * (Converse and ConverseStream); on replay only reasoning from the same model is sent — for
 * Claude, reasoning from the Anthropic API naming the same Claude model counts.
 */
import type { Message, ThinkingBlock } from 'golem';
import { eventFrame, frames, jsonReply, streamReply, useHarness } from './support';

const harness = useHarness();
const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const NOVA = 'us.amazon.nova-micro-v1:0';
const hi = { messages: [{ role: 'user' as const, content: 'Weather?' }], tools: [] };

function converse(content: unknown[], stopReason = 'end_turn'): string {
  return JSON.stringify({
    output: { message: { role: 'assistant', content } },
    stopReason,
    usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
  });
}

describe('decoding records provenance', () => {
  test('Converse: signed and redacted reasoning are stamped with bedrock and the model id', async () => {
    const { server, model } = harness.current;
    const redacted = Buffer.from([7, 8, 9]).toString('base64');
    server.push(
      jsonReply(
        converse([
          { reasoningContent: { reasoningText: { text: 'Think.', signature: 'sig-b' } } },
          { reasoningContent: { redactedContent: redacted } },
          { text: 'Hi' },
        ]),
      ),
    );
    const response = await model({ model: CLAUDE }).generate(hi);
    expect(response.message.thinking).toEqual([
      { text: 'Think.', signature: 'sig-b', provider: 'bedrock', model: CLAUDE },
      { redacted, provider: 'bedrock', model: CLAUDE },
    ]);
  });

  test('ConverseStream: the assembled reasoning is stamped the same way', async () => {
    const { server, model } = harness.current;
    server.push(
      streamReply(
        frames(
          eventFrame('messageStart', { role: 'assistant' }),
          eventFrame('contentBlockDelta', {
            contentBlockIndex: 0,
            delta: { reasoningContent: { text: 'Think.' } },
          }),
          eventFrame('contentBlockDelta', {
            contentBlockIndex: 0,
            delta: { reasoningContent: { signature: 'sig-s' } },
          }),
          eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
          eventFrame('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Hi' } }),
          eventFrame('messageStop', { stopReason: 'end_turn' }),
          eventFrame('metadata', { usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } }),
        ),
      ),
    );
    const response = await model({ model: CLAUDE }).stream(hi, () => undefined);
    expect(response.message.thinking).toEqual([
      { text: 'Think.', signature: 'sig-s', provider: 'bedrock', model: CLAUDE },
    ]);
  });
});

/** The assistant `content` sent to `modelId` for a history whose assistant turn has `thinking`. */
async function replayed(thinking: ThinkingBlock[], modelId: string): Promise<unknown> {
  const { server, model } = harness.current;
  const history: Message[] = [
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      thinking,
      toolCalls: [{ id: 'tu_1', name: 'get_weather', args: '{"city":"Lagos"}' }],
    },
    { role: 'tool', content: 'sunny', toolCallId: 'tu_1', toolName: 'get_weather' },
  ];
  server.push(jsonReply(converse([{ text: 'ok' }])));
  await model({ model: modelId }).generate({ messages: history, tools: [] });
  const sent = server.requests.at(-1)?.json as { messages: { content: unknown[] }[] };
  return sent.messages[1]?.content;
}

const toolUse = { toolUse: { toolUseId: 'tu_1', name: 'get_weather', input: { city: 'Lagos' } } };

describe('encoding replays only what this model issued', () => {
  test('same model: signed reasoning replayed with its signature', async () => {
    expect(
      await replayed([{ text: 'T', signature: 'sig', provider: 'bedrock', model: CLAUDE }], CLAUDE),
    ).toEqual([{ reasoningContent: { reasoningText: { text: 'T', signature: 'sig' } } }, toolUse]);
  });

  test('Claude via the Anthropic API, same Claude model: replayed (signatures work across platforms)', async () => {
    const fromApi = { provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' };
    const redacted = Buffer.from('opaque').toString('base64');
    expect(
      await replayed(
        [
          { text: 'T', signature: 'sig-api', ...fromApi },
          { redacted, ...fromApi },
        ],
        CLAUDE,
      ),
    ).toEqual([
      { reasoningContent: { reasoningText: { text: 'T', signature: 'sig-api' } } },
      { reasoningContent: { redactedContent: redacted } },
      toolUse,
    ]);
  });

  test('foreign reasoning is left out: another model, another provider, unsigned foreign text', async () => {
    const content = await replayed(
      [
        { text: 'claude', signature: 'sig-claude', provider: 'bedrock', model: CLAUDE },
        { text: 'gemini', signature: 'sig-gemini', provider: 'gemini', model: 'gemini-3-pro' },
        { text: 'deepseek text', provider: 'deepseek', model: 'deepseek-reasoner' },
        { text: 'anthropic', signature: 'sig-api', provider: 'anthropic', model: 'claude-x' },
      ],
      NOVA,
    );
    expect(content).toEqual([toolUse]);
  });

  test('redacted data that is not canonical base64 cannot travel as bytes unchanged: left out', async () => {
    const fromApi = { provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' };
    expect(await replayed([{ redacted: 'not base64!', ...fromApi }], CLAUDE)).toEqual([toolUse]);
  });

  test('unstamped reasoning (older stored histories) is trusted as this model’s own', async () => {
    expect(await replayed([{ text: 'old', signature: 'sig-old' }], NOVA)).toEqual([
      { reasoningContent: { reasoningText: { text: 'old', signature: 'sig-old' } } },
      toolUse,
    ]);
  });
});
