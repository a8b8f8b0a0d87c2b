/** The exact request the adapter sends: generationConfig (settings, thinking) and structured output. */
import { type ModelRequest, ConfigError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunk, jsonReply, modelFor, rejection, request } from './helpers';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const ok = () => jsonReply(chunk([{ text: 'ok' }], { finishReason: 'STOP' }));

async function sent(req: ModelRequest, options = {}): Promise<Record<string, unknown>> {
  server.push(ok());
  await modelFor(server, options).generate(req);
  return server.requests[0]?.json as Record<string, unknown>;
}

const weather = {
  name: 'get_weather',
  description: 'Weather of a city.',
  schema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

describe('generationConfig (spec §23)', () => {
  test('absent when nothing is set', async () => {
    expect(await sent(request([userMessage('x')]))).not.toHaveProperty('generationConfig');
  });

  test('every setting mapped; 0 is a real value; maxTokens 0 and an empty stop are omitted', async () => {
    const body = await sent(
      request([userMessage('x')], {
        settings: {
          temperature: 0,
          topP: 0,
          maxTokens: 0,
          stop: [],
          seed: 7,
          presencePenalty: 0,
          frequencyPenalty: -0.5,
        },
      }),
    );
    expect(body.generationConfig).toEqual({
      temperature: 0,
      topP: 0,
      seed: 7,
      presencePenalty: 0,
      frequencyPenalty: -0.5,
    });
  });

  test('maxTokens and stop when set; adapter defaults under request settings', async () => {
    const body = await sent(
      request([userMessage('x')], { settings: { maxTokens: 256, stop: ['END'], topP: 0.5 } }),
      { settings: { temperature: 1.5, topP: 0.9 } },
    );
    expect(body.generationConfig).toEqual({
      temperature: 1.5,
      topP: 0.5,
      maxOutputTokens: 256,
      stopSequences: ['END'],
    });
  });

  test.each([
    [{ temperature: 2.1 }, 'temperature must be a number in [0, 2]'],
    [{ temperature: -0.1 }, 'temperature must be a number in [0, 2]'],
    [{ topP: 1.5 }, 'topP must be a number in [0, 1]'],
    [{ maxTokens: -1 }, 'maxTokens must be an integer >= 0'],
    [{ seed: 1.5 }, 'seed must be an integer'],
    [{ stop: [1] }, 'stop must be an array of strings'],
    [{ presencePenalty: Number.NaN }, 'presencePenalty must be a finite number'],
    [{ reasoningEffort: 'max' }, 'reasoningEffort must be one of'],
    [{ thinking: { mode: 'sometimes' } }, 'thinking.mode must be one of'],
    [{ thinking: { mode: 'enabled', budgetTokens: -5 } }, 'thinking.budgetTokens must be'],
    [{ thinking: { mode: 'disabled' }, reasoningEffort: 'low' }, 'not both'],
  ])('RQ-1: request settings %j are rejected before any request', async (settings, message) => {
    const error = await rejection(
      modelFor(server).generate(
        request([userMessage('x')], { settings: settings as ModelRequest['settings'] }),
      ),
    );
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toContain(message);
    expect(server.requests).toHaveLength(0);
  });

  test.each([
    [{}, { thinking: { mode: 'disabled' } }, { thinkingBudget: 0 }],
    [{}, { thinking: { mode: 'adaptive' } }, { thinkingBudget: -1 }],
    [
      {},
      { thinking: { mode: 'enabled', budgetTokens: 1024, includeThoughts: true } },
      { includeThoughts: true, thinkingBudget: 1024 },
    ],
    [{ level: 'high' }, { thinking: { mode: 'enabled' } }, { thinkingLevel: 'high' }],
    [{ level: 'high' }, { thinking: { mode: 'disabled' } }, { thinkingBudget: 0 }],
    [
      { budget: 512, includeThoughts: true },
      { reasoningEffort: 'low' },
      { includeThoughts: true, thinkingLevel: 'low' },
    ],
    [
      { includeThoughts: true },
      { thinking: { mode: 'enabled', includeThoughts: false } },
      { includeThoughts: false },
    ],
    [{ budget: -1 }, {}, { thinkingBudget: -1 }],
  ])(
    'thinking: adapter %j with request %j → thinkingConfig %j',
    async (thinking, settings, config) => {
      const body = await sent(
        request([userMessage('x')], { settings: settings as ModelRequest['settings'] }),
        { thinking },
      );
      expect(body.generationConfig).toEqual({ thinkingConfig: config });
    },
  );

  test('extraBody merges at the top level and into generationConfig', async () => {
    const body = await sent(
      request([userMessage('x')], {
        settings: {
          temperature: 0.2,
          extraBody: {
            safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
            generationConfig: { candidateCount: 1 },
          },
        },
      }),
    );
    expect(body.safetySettings).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
    ]);
    expect(body.generationConfig).toEqual({ temperature: 0.2, candidateCount: 1 });
  });
});

describe('structured output', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { city: { type: ['string', 'null'] } },
    required: ['city'],
    additionalProperties: false,
  };

  test('default: responseMimeType + responseJsonSchema (the schema as is, without $schema)', async () => {
    const body = await sent(request([userMessage('x')], { outputSchema: schema }));
    const { $schema: _schema, ...rest } = schema;
    expect(body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: rest,
    });
  });

  test('outputSchemaField responseSchema: compiled to the OpenAPI subset', async () => {
    const body = await sent(request([userMessage('x')], { outputSchema: schema }), {
      outputSchemaField: 'responseSchema',
    });
    expect(body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'OBJECT',
        properties: { city: { type: 'STRING', nullable: true } },
        required: ['city'],
      },
    });
  });

  test('PA-8: schema + tools fails before any request, pointing to outputTool', async () => {
    const error = await rejection(
      modelFor(server).generate(
        request([userMessage('x')], { outputSchema: schema, tools: [weather] }),
      ),
    );
    expect(ConfigError.is(error, 'model')).toBe(true);
    expect((error as Error).message).toContain('outputTool');
    expect(server.requests).toHaveLength(0);
  });
});
