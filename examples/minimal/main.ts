/**
 * Minimal: one agent, one tool, a real model. Uses OpenAI through `golem/providers/openai`; the
 * key comes from the environment here, in the application, never inside the adapter. Without
 * OPENAI_API_KEY the example prints what it needs and exits cleanly.
 */
import { Agent, defineTool, ModelRetry } from 'golem';
import { openai } from 'golem/providers/openai';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const add = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  schema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  parse: (args) => {
    if (!isRecord(args) || typeof args.a !== 'number' || typeof args.b !== 'number')
      throw new ModelRetry('a and b must be numbers');
    return { a: args.a, b: args.b };
  },
  execute: ({ a, b }) => String(a + b),
});

export async function main(
  log: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const apiKey = env.OPENAI_API_KEY ?? '';
  if (apiKey === '') {
    log('minimal: OPENAI_API_KEY is not set, so nothing was sent.');
    log('Run it against OpenAI with a key:');
    log('  OPENAI_API_KEY=sk-... node -r @swc-node/register examples/minimal/main.ts');
    log('OPENAI_MODEL picks the model (default gpt-4o-mini).');
    return;
  }
  const model = openai({ model: env.OPENAI_MODEL ?? 'gpt-4o-mini', apiKey });
  const agent = new Agent({
    model,
    instructions: 'Use the add tool for arithmetic. Answer in one short sentence.',
    tools: [add],
  });
  const result = await agent.run('What is 19 + 23?');
  log(`model: ${model.name}`);
  log(`output: ${result.output}`);
  const calls = result.messages.flatMap((m) => m.toolCalls ?? []);
  log(`tool calls: ${calls.map((c) => `${c.name}(${c.args})`).join(', ') || '(none)'}`);
  log(`usage: ${result.usage.inputTokens} in, ${result.usage.outputTokens} out`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
