/**
 * Request translation: the exact Converse body the adapter sends (through the real SDK) for
 * conversations, images, thinking replay, tools, settings, thinking controls and output schemas.
 */
import { imageData, imageUrl, type ModelRequest, type ModelSettings, ConfigError } from 'golem';
import type { BedrockOptions } from 'golem/providers/bedrock';
import { jsonReply, ownFixture, rejection, useHarness } from './support';

const harness = useHarness();

async function sentBody(
  request: ModelRequest,
  options: Partial<BedrockOptions> = {},
): Promise<unknown> {
  const { server, model } = harness.current;
  server.push(jsonReply(ownFixture('converse-text.json')));
  await model(options).generate(request);
  return server.requests[server.requests.length - 1]!.json;
}

const hello: ModelRequest = { messages: [{ role: 'user', content: 'Hello!' }], tools: [] };
const userHello = { role: 'user', content: [{ text: 'Hello!' }] };

function withSettings(settings: ModelSettings): ModelRequest {
  return { ...hello, settings };
}

describe('Bedrock request translation', () => {
  test('system messages become system text blocks, in order, wherever they appear', async () => {
    const body = await sentBody({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello!' },
        { role: 'system', content: 'Answer in French.' },
      ],
      tools: [],
    });
    expect(body).toEqual({
      messages: [userHello],
      system: [{ text: 'Be brief.' }, { text: 'Answer in French.' }],
    });
  });

  test('a full tool round trip: thinking replayed first, then text and toolUse; results merged with the next prompt', async () => {
    const redacted = Buffer.from([0, 1, 2, 250, 255]).toString('base64');
    const body = await sentBody({
      messages: [
        { role: 'user', content: 'Weather in Paris and Lyon?' },
        {
          role: 'assistant',
          content: 'Checking both.',
          thinking: [{ text: 'Two cities.', signature: 'sig-1' }, { redacted }],
          toolCalls: [
            { id: 'tooluse_1', name: 'weather', args: '{"city":"Paris"}' },
            { id: 'tooluse_2', name: 'weather', args: '{"city":"Lyon"}' },
          ],
        },
        { role: 'tool', content: 'sunny', toolCallId: 'tooluse_1', toolName: 'weather' },
        { role: 'tool', content: 'rain', toolCallId: 'tooluse_2', toolName: 'weather' },
        { role: 'user', content: 'And tomorrow?' },
      ],
      tools: [],
    });
    expect(body).toEqual({
      messages: [
        { role: 'user', content: [{ text: 'Weather in Paris and Lyon?' }] },
        {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text: 'Two cities.', signature: 'sig-1' } } },
            { reasoningContent: { redactedContent: redacted } },
            { text: 'Checking both.' },
            { toolUse: { toolUseId: 'tooluse_1', name: 'weather', input: { city: 'Paris' } } },
            { toolUse: { toolUseId: 'tooluse_2', name: 'weather', input: { city: 'Lyon' } } },
          ],
        },
        {
          role: 'user',
          content: [
            { toolResult: { toolUseId: 'tooluse_1', content: [{ text: 'sunny' }] } },
            { toolResult: { toolUseId: 'tooluse_2', content: [{ text: 'rain' }] } },
            { text: 'And tomorrow?' },
          ],
        },
      ],
    });
  });

  test('PA-4 empty, whitespace and non-object args are sent as an empty input object', async () => {
    const body = (await sentBody({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          toolCalls: [
            { id: 'a', name: 'x', args: '' },
            { id: 'b', name: 'x', args: '  ' },
            { id: 'c', name: 'x', args: '{"cut": ' },
            { id: 'd', name: 'x', args: '[1]' },
          ],
        },
      ],
      tools: [],
    })) as { messages: { content: { toolUse: { input: unknown } }[] }[] };
    expect(body.messages[1]!.content.map((b) => b.toolUse.input)).toEqual([{}, {}, {}, {}]);
  });

  test('tools become toolConfig toolSpecs with the schema under inputSchema.json; the output tool like any other', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const body = await sentBody({
      ...hello,
      tools: [
        { name: 'weather', description: 'Weather of a city.', schema },
        { name: 'final_result', description: '', schema: { type: 'object' }, output: true },
      ],
    });
    expect(body).toEqual({
      messages: [userHello],
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: 'weather',
              description: 'Weather of a city.',
              inputSchema: { json: schema },
            },
          },
          { toolSpec: { name: 'final_result', inputSchema: { json: { type: 'object' } } } },
        ],
      },
    });
  });

  test('RQ-2 unset settings send no inferenceConfig at all', async () => {
    expect(await sentBody(withSettings({}))).toEqual({ messages: [userHello] });
  });

  test('RQ-2 temperature 0 and topP 0 are real values; maxTokens 0 is omitted; stop → stopSequences', async () => {
    const body = await sentBody(
      withSettings({ temperature: 0, topP: 0, maxTokens: 0, stop: ['END'] }),
    );
    expect(body).toEqual({
      messages: [userHello],
      inferenceConfig: { temperature: 0, topP: 0, stopSequences: ['END'] },
    });
  });

  test('adapter defaults apply; request settings override them field by field', async () => {
    const body = await sentBody(withSettings({ temperature: 0.2, stop: [] }), {
      maxTokens: 512,
      temperature: 0.9,
      topP: 0.5,
      stop: ['X'],
    });
    expect(body).toEqual({
      messages: [userHello],
      inferenceConfig: { maxTokens: 512, temperature: 0.2, topP: 0.5 },
    });
  });

  test('seed and penalties have no Converse field and are not sent', async () => {
    const body = await sentBody(withSettings({ seed: 7, presencePenalty: 1, frequencyPenalty: 1 }));
    expect(body).toEqual({ messages: [userHello] });
  });

  test.each([
    [
      { mode: 'enabled', budgetTokens: 2048 },
      { type: 'enabled', budget_tokens: 2048 },
    ],
    [{ mode: 'adaptive' }, { type: 'adaptive' }],
    [{ mode: 'disabled' }, { type: 'disabled' }],
  ] as const)('thinking %j → additionalModelRequestFields.thinking %j', async (thinking, wire) => {
    const body = await sentBody(hello, { thinking: { ...thinking } });
    expect(body).toEqual({
      messages: [userHello],
      additionalModelRequestFields: { thinking: wire },
    });
  });

  test('additionalModelRequestFields option is merged with thinking; the request thinking wins', async () => {
    const body = await sentBody(withSettings({ thinking: { mode: 'adaptive' } }), {
      additionalModelRequestFields: { top_k: 40 },
      thinking: { mode: 'enabled', budgetTokens: 1024 },
    });
    expect(body).toEqual({
      messages: [userHello],
      additionalModelRequestFields: { top_k: 40, thinking: { type: 'adaptive' } },
    });
  });

  test('an output schema with tools and reasoning effort: one outputConfig with textFormat and effort', async () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };
    const body = await sentBody({
      ...hello,
      tools: [{ name: 't', description: 'd', schema: { type: 'object' } }],
      outputSchema: schema,
      settings: { reasoningEffort: 'minimal' },
    });
    expect(body).toEqual({
      messages: [userHello],
      toolConfig: {
        tools: [
          { toolSpec: { name: 't', description: 'd', inputSchema: { json: { type: 'object' } } } },
        ],
      },
      outputConfig: {
        effort: 'low',
        textFormat: {
          type: 'json_schema',
          structure: { jsonSchema: { name: 'output', schema: JSON.stringify(schema) } },
        },
      },
    });
  });

  test('extraBody fields the Converse API knows are sent at the top level', async () => {
    const body = await sentBody(
      withSettings({ extraBody: { performanceConfig: { latency: 'optimized' } } }),
    );
    expect(body).toEqual({ messages: [userHello], performanceConfig: { latency: 'optimized' } });
  });

  test.each([
    ['image/png', 'png'],
    ['image/jpeg', 'jpeg'],
    ['image/gif', 'gif'],
    ['image/webp', 'webp'],
  ])(
    'an inline %s image becomes an image block of format %s after the text',
    async (type, format) => {
      const bytes = new Uint8Array([137, 80, 78, 71, 0, 255]);
      const body = await sentBody({
        messages: [{ role: 'user', content: 'What is it?', parts: [imageData(type, bytes)] }],
        tools: [],
      });
      expect(body).toEqual({
        messages: [
          {
            role: 'user',
            content: [
              { text: 'What is it?' },
              { image: { format, source: { bytes: Buffer.from(bytes).toString('base64') } } },
            ],
          },
        ],
      });
    },
  );

  test('a base64 data: URL is inline content and is sent as bytes', async () => {
    const body = await sentBody({
      messages: [
        { role: 'user', content: 'x', parts: [imageUrl('data:image/gif;base64,R0lGODlhAQ==')] },
      ],
      tools: [],
    });
    expect(body).toEqual({
      messages: [
        {
          role: 'user',
          content: [{ text: 'x' }, { image: { format: 'gif', source: { bytes: 'R0lGODlhAQ==' } } }],
        },
      ],
    });
  });

  test('PA-7 an image URL fails with model ConfigError naming the part, before any request', async () => {
    const { server, model } = harness.current;
    const error = await rejection(
      model().generate({
        messages: [
          { role: 'user', content: 'first' },
          {
            role: 'user',
            content: 'see',
            parts: [
              imageData('image/png', new Uint8Array([1])),
              imageUrl('https://example.com/cat.png'),
            ],
          },
        ],
        tools: [],
      }),
    );
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toBe(
      'bedrock: message 1 part 1: Bedrock Converse does not accept image URLs (https://example.com/cat.png); send the image bytes with imageData(mediaType, bytes)',
    );
    expect(server.requests).toHaveLength(0);
  });

  test('an unsupported image media type fails with model ConfigError before any request (streaming too)', async () => {
    const { server, model } = harness.current;
    const request: ModelRequest = {
      messages: [
        { role: 'user', content: 'x', parts: [imageData('image/bmp', new Uint8Array([1]))] },
      ],
      tools: [],
    };
    const error = await rejection(model().stream(request, () => undefined));
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toBe(
      'bedrock: message 0 part 0: image media type "image/bmp" is not supported by Bedrock Converse (png, jpeg, gif, webp)',
    );
    expect(server.requests).toHaveLength(0);
  });

  test('parts on an assistant message fail instead of being dropped', async () => {
    const error = await rejection(
      harness.current.model().generate({
        messages: [
          { role: 'assistant', content: 'x', parts: [imageData('image/png', new Uint8Array([1]))] },
        ],
        tools: [],
      }),
    );
    expect((error as Error).message).toBe(
      'bedrock: message 0: parts are only supported on user messages (role assistant)',
    );
  });

  test('RQ-1 out-of-range request settings fail with model ConfigError before any request', async () => {
    const { server, model } = harness.current;
    const error = await rejection(model().generate(withSettings({ temperature: 1.5 })));
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toBe(
      'bedrock: request settings: temperature must be a number in [0, 1], got 1.5',
    );
    expect(server.requests).toHaveLength(0);
  });
});
