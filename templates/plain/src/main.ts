import { detectDefaultModel, resolveModel } from 'golem/providers/resolve';
import { TestModel } from 'golem/testing';
import { createAgent } from './agent';

async function main(): Promise<void> {
  // 'test' (the offline TestModel) unless a provider key is set: OPENAI_API_KEY, ANTHROPIC_API_KEY,
  // GEMINI_API_KEY or GOLEM_LOCAL_BASE_URL.
  const spec = detectDefaultModel(process.env);
  const model = resolveModel(spec, {
    env: process.env,
    testModel: (name) => new TestModel({ name }),
  });
  const agent = createAgent(model);
  const result = await agent.run('What is the weather in Lagos?');
  console.log(`model: ${spec}`);
  console.log(`output: ${result.output}`);
  console.log(
    `usage: ${result.usage.inputTokens} input + ${result.usage.outputTokens} output tokens, ${result.requests} requests, ${result.toolCalls} tool calls`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
