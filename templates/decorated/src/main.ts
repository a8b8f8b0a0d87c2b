import { resolveAgent } from 'golem/container';
import { detectDefaultModel } from 'golem/providers/resolve';
import { createAppContainer } from './container';
import { WeatherAgent } from './weather.agent';

async function main(): Promise<void> {
  // 'test' (the offline TestModel) unless a provider key is set: OPENAI_API_KEY, ANTHROPIC_API_KEY,
  // GEMINI_API_KEY or GOLEM_LOCAL_BASE_URL.
  const model = detectDefaultModel(process.env);
  const agent = resolveAgent(createAppContainer(model), WeatherAgent); // Agent<User, Forecast>
  const result = await agent.run('What is the weather in Lagos?', { deps: { name: 'Ada' } });
  console.log(`model: ${model}`);
  console.log(`output: ${JSON.stringify(result.output)}`); // a validated Forecast
  console.log(
    `usage: ${result.usage.inputTokens} input + ${result.usage.outputTokens} output tokens, ${result.requests} requests, ${result.toolCalls} tool calls`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
