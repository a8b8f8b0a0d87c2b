/**
 * Opt-in live tests of the Anthropic adapter against the real Messages API. The default jest run
 * never picks this file up (its testMatch is `*.test.ts`). Run it with a key:
 *
 *   ANTHROPIC_API_KEY=sk-ant-... npx jest --testMatch '**\/*.live.ts' test/live/anthropic.live.ts
 *
 * `ANTHROPIC_MODEL` picks the model (default `claude-haiku-4-5`). Without a key the file
 * registers one test that states so, and sends nothing.
 */
import { Agent, defineTool, ModelHTTPError, type Delta } from 'golem';
import { isRecord } from '../../src/core/kit/guards';
import { anthropic } from 'golem/providers/anthropic';

const apiKey = process.env.ANTHROPIC_API_KEY ?? '';
const modelId = process.env.ANTHROPIC_MODEL ?? 'claude-haiku-4-5';

if (apiKey === '') {
  test('ANTHROPIC_API_KEY is not set: the Anthropic live tests send nothing', () => {
    expect(apiKey).toBe('');
  });
} else {
  jest.setTimeout(120_000);
  const model = anthropic({ model: modelId, apiKey, maxTokens: 512 });

  test('live generate: a short answer with usage, finish reason stop and the model name', async () => {
    const response = await model.generate({
      messages: [{ role: 'user', content: 'Reply with the single word: pong' }],
      tools: [],
    });
    expect(response.message.content?.toLowerCase()).toContain('pong');
    expect(response.finishReason).toBe('stop');
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.modelName).toMatch(/^claude-/);
  });

  test('live stream: the deltas add up to the assembled text', async () => {
    const deltas: Delta[] = [];
    const response = await model.stream(
      { messages: [{ role: 'user', content: 'Count from 1 to 5, comma separated.' }], tools: [] },
      (d) => void deltas.push(d),
    );
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(response.message.content);
    expect(response.finishReason).toBe('stop');
  });

  test('live agent: a streamed tool round trip', async () => {
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
  });

  test('live structured output: the text is JSON matching the schema', async () => {
    const response = await model.generate({
      messages: [{ role: 'user', content: 'Give the capital of France.' }],
      tools: [],
      outputSchema: {
        type: 'object',
        properties: { capital: { type: 'string' } },
        required: ['capital'],
      },
    });
    expect(JSON.parse(response.message.content ?? '')).toEqual({ capital: 'Paris' });
  });

  test('live error: an unknown model is a 404 not_found_error, not retryable', async () => {
    const error = await anthropic({ model: 'claude-does-not-exist', apiKey })
      .generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] })
      .catch((e: unknown) => e);
    expect(ModelHTTPError.is(error)).toBe(true);
    expect([(error as ModelHTTPError).status, (error as ModelHTTPError).retryable]).toEqual([
      404,
      false,
    ]);
    expect((error as Error).message).not.toContain(apiKey);
  });
}
