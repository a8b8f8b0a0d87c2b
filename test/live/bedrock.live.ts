/**
 * Opt-in live tests of the Bedrock adapter against the real Converse / ConverseStream APIs (they
 * cost money). The default jest run never picks this file up (its testMatch is `*.test.ts`). Run
 * it with a region and credentials the AWS SDK can resolve:
 *
 *   AWS_REGION=us-east-1 AWS_PROFILE=my-profile npx jest --testMatch '**\/*.live.ts' -- test/live/bedrock
 *
 * `BEDROCK_MODEL_ID` picks the model (default `us.amazon.nova-micro-v1:0`; it must be enabled in
 * the account). `BEDROCK_THINKING_MODEL_ID` (e.g. `us.anthropic.claude-sonnet-4-20250514-v1:0`)
 * adds a reasoning round trip. Without a region and credentials the file registers one test that
 * states so, and sends nothing.
 */
import { Agent, ModelHTTPError, defineTool, type Delta } from 'golem';
import { isRecord } from '../../src/core/kit/guards';
import { bedrock } from 'golem/providers/bedrock';

const region = process.env.AWS_REGION ?? '';
const hasCredentials =
  (process.env.AWS_ACCESS_KEY_ID ?? '') !== '' || (process.env.AWS_PROFILE ?? '') !== '';
const modelId = process.env.BEDROCK_MODEL_ID ?? 'us.amazon.nova-micro-v1:0';
const thinkingModelId = process.env.BEDROCK_THINKING_MODEL_ID ?? '';

if (region === '' || !hasCredentials) {
  test('AWS_REGION and AWS credentials are not set: the Bedrock live tests send nothing', () => {
    expect(region === '' || !hasCredentials).toBe(true);
  });
} else {
  jest.setTimeout(120_000);
  const model = bedrock({ model: modelId, region, maxTokens: 512 });
  afterAll(() => {
    model.destroy();
  });

  test('live generate: a short answer with usage, finish reason stop and the model id', async () => {
    const response = await model.generate({
      messages: [{ role: 'user', content: 'Reply with the single word: pong' }],
      tools: [],
    });
    expect(response.message.content?.toLowerCase()).toContain('pong');
    expect(response.finishReason).toBe('stop');
    expect(response.usage.inputTokens).toBeGreaterThan(0);
    expect(response.modelName).toBe(modelId);
  });

  test('live stream: the deltas add up to the assembled text', async () => {
    const deltas: Delta[] = [];
    const response = await model.stream(
      { messages: [{ role: 'user', content: 'Count from 1 to 5, comma separated.' }], tools: [] },
      (d) => void deltas.push(d),
    );
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(response.message.content);
    expect(response.finishReason).toBe('stop');
    expect(response.usage.outputTokens).toBeGreaterThan(0);
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

  test('live error: an unknown model id → ModelHTTPError 400, not retryable', async () => {
    const missing = bedrock({ model: 'us.does-not-exist-model-v1:0', region });
    try {
      await missing.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [] });
      throw new Error('expected the call to fail');
    } catch (error) {
      expect(ModelHTTPError.is(error)).toBe(true);
      expect((error as ModelHTTPError).status).toBe(400);
      expect((error as ModelHTTPError).retryable).toBe(false);
    } finally {
      missing.destroy();
    }
  });

  if (thinkingModelId !== '') {
    test('live thinking: signed reasoning comes back and is accepted when replayed', async () => {
      const thinker = bedrock({
        model: thinkingModelId,
        region,
        maxTokens: 2048,
        thinking: { mode: 'enabled', budgetTokens: 1024 },
      });
      try {
        const agent = new Agent({ model: thinker });
        const first = await agent.run('What is 17 * 23? Answer with the number.');
        const thinking = first.messages.find((m) => m.role === 'assistant')?.thinking ?? [];
        expect(thinking.length).toBeGreaterThan(0);
        expect(thinking[0]?.signature ?? thinking[0]?.redacted).toBeTruthy();
        const second = await agent.run('And plus 1?', { history: first.messages });
        expect(second.output).toContain('392');
      } finally {
        thinker.destroy();
      }
    });
  }
}
