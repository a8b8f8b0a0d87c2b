/**
 * Opt-in live tests of the OpenAI-compatible adapter against the real OpenAI API (and, when
 * `GOLEM_LOCAL_BASE_URL` is set, a local Ollama / LM Studio server). The default jest run never
 * picks this file up (its testMatch is `*.test.ts`). Run it with a key:
 *
 *   OPENAI_API_KEY=sk-... npx jest --testMatch '**\/*.live.ts' test/live/openai.live.ts
 *
 * `OPENAI_MODEL` picks the model (default `gpt-4o-mini`); `GOLEM_LOCAL_BASE_URL` (e.g.
 * `http://localhost:11434/v1`) and `GOLEM_LOCAL_MODEL` (default `llama3.2`) add a local run.
 * Without either the file registers one test that states so, and sends nothing.
 */
import { Agent, decodeJSON, defineTool, ModelHTTPError, type Delta } from 'golem';
import { isRecord } from '../../src/core/kit/guards';
import { openai } from 'golem/providers/openai';

const apiKey = process.env.OPENAI_API_KEY ?? '';
const modelId = process.env.OPENAI_MODEL ?? 'gpt-4o-mini';
const localURL = process.env.GOLEM_LOCAL_BASE_URL ?? '';
const localModel = process.env.GOLEM_LOCAL_MODEL ?? 'llama3.2';

if (apiKey === '' && localURL === '') {
  test('OPENAI_API_KEY and GOLEM_LOCAL_BASE_URL are not set: the OpenAI live tests send nothing', () => {
    expect([apiKey, localURL]).toEqual(['', '']);
  });
}

if (apiKey !== '') {
  describe('live OpenAI', () => {
    jest.setTimeout(120_000);
    const model = openai({ model: modelId, apiKey });

    test('generate: a short answer with usage, finish reason stop and the model name', async () => {
      const response = await model.generate({
        messages: [{ role: 'user', content: 'Reply with the single word: pong' }],
        tools: [],
      });
      expect(response.message.content?.toLowerCase()).toContain('pong');
      expect(response.finishReason).toBe('stop');
      expect(response.usage.inputTokens).toBeGreaterThan(0);
      expect(response.modelName).toContain(modelId);
    });

    test('stream: the deltas add up to the assembled text; usage arrives in the final chunk', async () => {
      const deltas: Delta[] = [];
      const response = await model.stream(
        { messages: [{ role: 'user', content: 'Count from 1 to 5, comma separated.' }], tools: [] },
        (d) => void deltas.push(d),
      );
      expect(deltas.map((d) => d.content ?? '').join('')).toBe(response.message.content);
      expect(response.usage.outputTokens).toBeGreaterThan(0);
    });

    test('agent: a streamed tool round trip', async () => {
      const weather = defineTool({
        name: 'get_weather',
        description: 'Current weather of a city.',
        schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        execute: (args) => (isRecord(args) ? `sunny in ${String(args.city)}` : 'unknown'),
      });
      const stream = new Agent({ model, tools: [weather] }).runStream(
        'What is the weather in Lagos?',
      );
      for await (const _ of stream) {
        // drain
      }
      const result = await stream.result;
      expect(result.messages.some((m) => m.role === 'tool')).toBe(true);
      expect(result.output.toLowerCase()).toContain('sunny');
    });

    test('native structured output in strict mode, optional fields included', async () => {
      const agent = new Agent({
        model,
        outputSchema: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            country: { type: 'string' },
            nickname: { type: 'string' },
          },
          required: ['city', 'country'],
        },
        output: decodeJSON((v) => v as { city: string; country: string; nickname?: string }),
      });
      const result = await agent.run('The capital of France, as JSON.');
      expect(result.output.city).toBe('Paris');
    });

    test('an unknown model is a non-retryable ModelHTTPError 404', async () => {
      const error: unknown = await openai({ model: 'no-such-model-golem', apiKey })
        .generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] })
        .catch((e: unknown) => e);
      expect(ModelHTTPError.is(error) && error.status === 404 && !error.retryable).toBe(true);
    });
  });
}

if (localURL !== '') {
  describe('live local server', () => {
    jest.setTimeout(300_000);
    const model = openai({ model: localModel, baseURL: localURL });

    test('stream: text deltas and the [DONE] terminal', async () => {
      const deltas: Delta[] = [];
      const response = await model.stream(
        { messages: [{ role: 'user', content: 'Say hello in one word.' }], tools: [] },
        (d) => void deltas.push(d),
      );
      expect(deltas.map((d) => d.content ?? '').join('')).toBe(response.message.content);
    });
  });
}
