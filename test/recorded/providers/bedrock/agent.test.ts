/**
 * End to end: an Agent running on the Bedrock adapter against the replay server, through a tool
 * round trip, with `run` (Converse) and `runStream` (ConverseStream), replaying recorded fixtures.
 */
import { Agent, defineTool, type Delta } from 'golem';
import { isRecord } from '../../../../src/core/kit/guards';
import { jsonReply, streamReply, useHarness } from '../../../src/providers/bedrock/support';
import { expectedOf, fixtureBytes } from './recorded';

const harness = useHarness();

describe('Agent on Bedrock', () => {
  test('run: toolUse turn (b03), the tool runs, its result goes back as toolResult, then the answer (b01)', async () => {
    const { server, model } = harness.current;
    server.push(
      jsonReply(fixtureBytes('b03-tool-call.json')),
      jsonReply(fixtureBytes('b01-text.json')),
    );
    const seen: unknown[] = [];
    const temperature = defineTool({
      name: 'temperature',
      description: 'Temperature in a city on a date.',
      schema: {
        type: 'object',
        properties: { city: { type: 'string' }, date: { type: 'string' } },
        required: ['city', 'date'],
      },
      execute: (args) => {
        seen.push(args);
        return '7 °C';
      },
    });
    const agent = new Agent({
      model: model(),
      tools: [temperature],
      instructions: 'You are a helpful chatbot.',
    });

    const result = await agent.run('What was the temperature in London 1st January 2022?');

    expect(result.output).toBe(expectedOf('b01-text').text);
    expect(seen).toEqual([{ city: 'London', date: '2022-01-01' }]);
    expect(result.usage).toEqual({ inputTokens: 571 + 7, outputTokens: 22 + 30 });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.json).toEqual({
      system: [{ text: 'You are a helpful chatbot.' }],
      messages: [
        {
          role: 'user',
          content: [{ text: 'What was the temperature in London 1st January 2022?' }],
        },
        {
          role: 'assistant',
          content: [
            {
              toolUse: {
                toolUseId: 'tooluse_Mj06ft-ITJik1Otgpkc1uA',
                name: 'temperature',
                input: { city: 'London', date: '2022-01-01' },
              },
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              toolResult: {
                toolUseId: 'tooluse_Mj06ft-ITJik1Otgpkc1uA',
                content: [{ text: '7 °C' }],
              },
            },
          ],
        },
      ],
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: 'temperature',
              description: 'Temperature in a city on a date.',
              inputSchema: {
                json: {
                  type: 'object',
                  properties: { city: { type: 'string' }, date: { type: 'string' } },
                  required: ['city', 'date'],
                },
              },
            },
          },
        ],
      },
    });
    expect(result.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  test('runStream: the streamed toolUse (b04) runs the tool, then the streamed answer (b02); every fragment is forwarded', async () => {
    const { server, model } = harness.current;
    server.push(
      streamReply(fixtureBytes('b04-tool-call.stream.eventstream.bin')),
      streamReply(fixtureBytes('b02-text.stream.eventstream.bin')),
    );
    const getTemperature = defineTool({
      name: 'get_temperature',
      description: 'Get the temperature in a city.',
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (args) => (isRecord(args) && args.city === 'Paris' ? '18 °C' : 'unknown'),
    });
    const agent = new Agent({ model: model(), tools: [getTemperature] });

    const stream = agent.runStream('What is the temperature of the capital of France?');
    const deltas: Delta[] = [];
    for await (const delta of stream) deltas.push(delta);
    const result = await stream.result;

    const b04 = expectedOf('b04-tool-call.stream');
    const b02 = expectedOf('b02-text.stream');
    expect(result.output).toBe(b02.text);
    expect(deltas.flatMap((d) => d.toolCalls ?? [])).toEqual([
      { index: 0, id: 'tooluse_lAG_zP8QRHmSYOwZzzaCqA', name: 'get_temperature' },
      { index: 0, argsFragment: '{"city":"Paris"}' },
    ]);
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(b04.text + b02.text);
    expect(result.usage).toEqual({ inputTokens: 471 + 13, outputTokens: 91 + 82 });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/model/us.amazon.nova-micro-v1%3A0/converse-stream',
      '/model/us.amazon.nova-micro-v1%3A0/converse-stream',
    ]);
    const second = server.requests[1]!.json as { messages: unknown[] };
    expect(second.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { text: b04.text },
          {
            toolUse: {
              toolUseId: 'tooluse_lAG_zP8QRHmSYOwZzzaCqA',
              name: 'get_temperature',
              input: { city: 'Paris' },
            },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            toolResult: {
              toolUseId: 'tooluse_lAG_zP8QRHmSYOwZzzaCqA',
              content: [{ text: '18 °C' }],
            },
          },
        ],
      },
    ]);
  });

  test('thinking from b09 is kept in the evidence and replayed unchanged on the next turn', async () => {
    const { server, model } = harness.current;
    server.push(
      jsonReply(fixtureBytes('b09-reasoning.json')),
      jsonReply(fixtureBytes('b01-text.json')),
    );
    const agent = new Agent({
      model: model({ thinking: { mode: 'enabled', budgetTokens: 1024 } }),
    });
    const first = await agent.run('How do I cross the street?');
    const reasoning = expectedOf('b09-reasoning').reasoning[0]!;
    expect(first.messages[1]!.thinking).toEqual([
      {
        text: reasoning.text,
        signature: reasoning.signature,
        provider: 'bedrock',
        model: 'us.amazon.nova-micro-v1:0',
      },
    ]);

    await agent.run('Thanks!', { history: first.messages });

    const sent = server.requests[1]!.json as { messages: { role: string; content: unknown[] }[] };
    expect(sent.messages[1]!.content[0]).toEqual({
      reasoningContent: { reasoningText: { text: reasoning.text, signature: reasoning.signature } },
    });
    expect(sent.messages[1]!.content[1]).toEqual({ text: expectedOf('b09-reasoning').text });
  });
});
