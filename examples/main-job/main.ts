/**
 * The main job (`npm start`): a decorated agent resolved from the container, on the model the
 * environment configures — OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY (or
 * GOOGLE_API_KEY) or GOLEM_LOCAL_BASE_URL (Ollama, LM Studio) — or, with none set, the embedded
 * TestModel, so it runs offline on a fresh machine. Prints the output, each message and the usage.
 */
import { createGolemContainer, resolveAgent } from 'golem/container';
import { detectDefaultModel } from 'golem/providers/resolve';
import type { Message } from 'golem';
import { WeatherAgent, weatherModule } from './weather.agent';

/** One line per message: the role, then its text or its tool calls. */
function describeMessage(message: Message): string {
  const text = (message.content ?? '').replace(/\s*\n\s*/g, ' ');
  if (message.role === 'tool') return `tool ${message.toolName ?? ''}: ${text}`;
  const calls = (message.toolCalls ?? []).map((call) => `${call.name}(${call.args})`);
  return calls.length > 0
    ? `${message.role} calls ${calls.join(', ')}`
    : `${message.role}: ${text}`;
}

export async function main(
  log: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  // 'test' offline; 'openai:gpt-4o-mini', 'anthropic:…', 'gemini:…' or 'ollama:…' when configured.
  const model = detectDefaultModel(env);
  const container = createGolemContainer({ defaultModel: model, env, modules: [weatherModule] });

  // Constructor injection happens here; the agent comes back typed as Agent<Traveller, Forecast>.
  const agent = resolveAgent(container, WeatherAgent);
  const result = await agent.run('What is the weather in Lagos tomorrow?', {
    deps: { name: 'Ada' },
  });

  log(`model: ${model}`);
  const { city, celsius, summary } = result.output; // a validated Forecast, no cast
  log(`output: ${city}, ${celsius}°C: ${summary}`);
  log('messages:');
  for (const message of result.messages) log(`  ${describeMessage(message)}`);
  log(
    `usage: ${result.usage.inputTokens} input + ${result.usage.outputTokens} output tokens, ${result.requests} requests, ${result.toolCalls} tool calls`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
