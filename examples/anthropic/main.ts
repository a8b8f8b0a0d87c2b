/**
 * Anthropic: an agent on Claude through the Messages API adapter, `anthropic({ model, apiKey })`,
 * with a tool round trip streamed fragment by fragment. It needs `ANTHROPIC_API_KEY` (the adapter
 * never reads the environment; this example does, and passes the key explicitly). Without the key
 * it prints what to set and exits cleanly.
 */
import { Agent, defineTool } from 'golem';
import { anthropic } from 'golem/providers/anthropic';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: (args) => (isRecord(args) && typeof args.city === 'string' ? 'sunny, 31°C' : 'unknown'),
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const apiKey = process.env.ANTHROPIC_API_KEY;
  if (apiKey === undefined || apiKey === '') {
    log('ANTHROPIC_API_KEY is not set: this example calls the Anthropic Messages API.');
    log('Run it with a key (ANTHROPIC_MODEL is optional, default claude-sonnet-4-5):');
    log('  ANTHROPIC_API_KEY=sk-ant-... node -r @swc-node/register examples/anthropic/main.ts');
    log('Nothing was sent.');
    return;
  }

  const model = anthropic({
    model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5',
    apiKey,
    maxTokens: 1024,
  });
  const agent = new Agent({
    model,
    instructions: 'Answer in one short sentence. Use the tool for weather questions.',
    tools: [getWeather],
  });

  const stream = agent.runStream('What is the weather in Lagos?');
  let fragments = 0;
  for await (const delta of stream) if (delta.content !== undefined) fragments++;
  const result = await stream.result;

  log(`model: ${model.name}`);
  log(`output: ${result.output}`);
  log(`text fragments streamed: ${fragments}`);
  log(`tool calls: ${result.toolCalls}`);
  log(`usage: ${result.usage.inputTokens} in, ${result.usage.outputTokens} out`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
