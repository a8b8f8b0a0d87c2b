/**
 * Opt-in live tests of the Gemini adapter against the real Generative Language API. The default
 * jest run never picks this file up (its testMatch is `*.test.ts`). Run it with a key:
 *
 *   GEMINI_API_KEY=... npx jest test/live/gemini.live.ts --testMatch '**\/*.live.ts'
 *
 * (the path goes first: `--testMatch` takes every argument after it as another pattern).
 *
 * `GEMINI_MODEL` picks the model (default `gemini-2.5-flash`). Without a key the file registers
 * one test that states so, and sends nothing.
 */
import { Agent, ModelHTTPError, defineTool, type Delta } from 'golem';
import { isRecord } from '../../src/core/kit/guards';
import { gemini } from 'golem/providers/gemini';

const apiKey = process.env.GEMINI_API_KEY ?? '';
const modelId = process.env.GEMINI_MODEL ?? 'gemini-2.5-flash';

if (apiKey === '') {
  test('GEMINI_API_KEY is not set: the Gemini live tests send nothing', () => {
    expect(apiKey).toBe('');
  });
} else {
  jest.setTimeout(120_000);
  const model = gemini({ model: modelId, apiKey });

  test('live generate: a short answer with usage, finish reason stop and the model name', async () => {
    const response = await model.generate({
      messages: [{ role: 'user', content: 'Reply with the single word: pong' }],
      tools: [],
    });
    expect(response.message.content?.toLowerCase()).toContain('pong');
    expect(response.finishReason).toBe('stop');
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.modelName).toMatch(/^gemini-/);
  });

  test('live stream: the deltas add up to the assembled text; the stream ends with a finish reason', async () => {
    const deltas: Delta[] = [];
    const response = await model.stream(
      { messages: [{ role: 'user', content: 'Count from 1 to 5, comma separated.' }], tools: [] },
      (d) => {
        deltas.push(d);
      },
    );
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(response.message.content);
    expect(response.finishReason).toBe('stop');
  });

  test('live agent: a streamed tool round trip with call ids and signatures replayed', async () => {
    const weather = defineTool({
      name: 'get_weather',
      description: 'Current weather of a city.',
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (args) => (isRecord(args) ? `sunny in ${String(args.city)}` : 'unknown'),
    });
    const agent = new Agent({ model, tools: [weather], instructions: 'Always use the tool.' });
    const stream = agent.runStream('What is the weather in Lagos?');
    for await (const _delta of stream) {
      // drain
    }
    const result = await stream.result;
    expect(result.toolCalls).toBeGreaterThanOrEqual(1);
    expect(result.output.toLowerCase()).toContain('sunny');
    // A second run continuing the conversation replays the call (and its signature).
    const again = await agent.run('And in Accra?', { history: result.messages });
    expect(again.output.toLowerCase()).toContain('sunny');
  });

  test('live structured output: responseJsonSchema', async () => {
    const response = await model.generate({
      messages: [{ role: 'user', content: 'What is the largest city in Mexico?' }],
      tools: [],
      outputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, country: { type: 'string' } },
        required: ['city', 'country'],
        additionalProperties: false,
      },
    });
    const parsed = JSON.parse(response.message.content ?? '') as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(['city', 'country']);
  });

  test('live thinking: includeThoughts returns thought summaries as thinking blocks', async () => {
    const thinker = gemini({ model: modelId, apiKey, thinking: { includeThoughts: true } });
    const response = await thinker.generate({
      messages: [{ role: 'user', content: 'How many r letters are in "strawberry"?' }],
      tools: [],
    });
    expect(response.message.content).toMatch(/3|three/i);
    expect(response.message.thinking?.some((b) => (b.text ?? '') !== '')).toBe(true);
  });

  test('live error: an unknown model is a 404 NOT_FOUND ModelHTTPError', async () => {
    const wrong = gemini({ model: 'gemini-0.0-nonexistent', apiKey });
    const error = await wrong
      .generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(ModelHTTPError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', retryable: false });
    expect((error as Error).message).not.toContain(apiKey);
  });
}
