/**
 * Opt-in live tests of the Azure OpenAI adapter. The default jest run never picks this file up
 * (its testMatch is `*.test.ts`). Run it with a deployment:
 *
 *   AZURE_OPENAI_ENDPOINT=https://<resource>.openai.azure.com AZURE_OPENAI_API_KEY=... \
 *   AZURE_OPENAI_DEPLOYMENT=gpt-4o-mini AZURE_OPENAI_API_VERSION=2024-10-21 \
 *   npx jest --testMatch '**\/*.live.ts' test/live/azure.live.ts
 *
 * `AZURE_OPENAI_API_VERSION` may be `v1` for the v1 API. Without the endpoint and key the file
 * registers one test that states so, and sends nothing.
 */
import { Agent, defineTool, type Delta } from 'golem';
import { isRecord } from '../../src/core/kit/guards';
import { azure } from 'golem/providers/azure';

const endpoint = process.env.AZURE_OPENAI_ENDPOINT ?? '';
const apiKey = process.env.AZURE_OPENAI_API_KEY ?? '';
const deployment = process.env.AZURE_OPENAI_DEPLOYMENT ?? 'gpt-4o-mini';
const apiVersion = process.env.AZURE_OPENAI_API_VERSION ?? '2024-10-21';

if (endpoint === '' || apiKey === '') {
  test('AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY are not set: the Azure live tests send nothing', () => {
    expect(endpoint === '' || apiKey === '').toBe(true);
  });
} else {
  jest.setTimeout(120_000);
  const model = azure({ endpoint, deployment, apiVersion, apiKey });

  test('live generate: a short answer with usage', async () => {
    const response = await model.generate({
      messages: [{ role: 'user', content: 'Reply with the single word: pong' }],
      tools: [],
    });
    expect(response.message.content?.toLowerCase()).toContain('pong');
    expect(response.usage.inputTokens).toBeGreaterThan(0);
  });

  test('live stream: the deltas add up to the assembled text', async () => {
    const deltas: Delta[] = [];
    const response = await model.stream(
      { messages: [{ role: 'user', content: 'Count from 1 to 5, comma separated.' }], tools: [] },
      (d) => void deltas.push(d),
    );
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(response.message.content);
  });

  test('live agent: a tool round trip', async () => {
    const weather = defineTool({
      name: 'get_weather',
      description: 'Current weather of a city.',
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: (args) => (isRecord(args) ? `sunny in ${String(args.city)}` : 'unknown'),
    });
    const result = await new Agent({ model, tools: [weather] }).run(
      'What is the weather in Lagos?',
    );
    expect(result.messages.some((m) => m.role === 'tool')).toBe(true);
  });
}
