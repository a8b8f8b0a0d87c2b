/**
 * Local models: the OpenAI-compatible adapter pointed at a local Ollama or LM Studio server (no
 * key). Set GOLEM_LOCAL_BASE_URL to the server's OpenAI-compatible base URL; without it the example
 * prints how to start one and exits cleanly.
 */
import { Agent } from 'golem';
import { OPENAI_PRESETS, openai } from 'golem/providers/openai';

export async function main(
  log: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const baseURL = env.GOLEM_LOCAL_BASE_URL ?? '';
  if (baseURL === '') {
    log('local-models: GOLEM_LOCAL_BASE_URL is not set, so nothing was sent.');
    log('Start a local OpenAI-compatible server, then point the example at it:');
    log(`  Ollama:    ollama pull llama3.2 && ollama serve     (${OPENAI_PRESETS.ollama.baseURL})`);
    log(
      `  LM Studio: load a model, then lms server start     (${OPENAI_PRESETS.lmstudio.baseURL})`,
    );
    log(
      `  GOLEM_LOCAL_BASE_URL=${OPENAI_PRESETS.ollama.baseURL} GOLEM_LOCAL_MODEL=llama3.2 node -r @swc-node/register examples/local-models/main.ts`,
    );
    log('GOLEM_LOCAL_MODEL picks the model (default llama3.2).');
    return;
  }
  const model = openai({ model: env.GOLEM_LOCAL_MODEL ?? 'llama3.2', baseURL });
  const agent = new Agent({ model, instructions: 'Answer in one sentence.' });
  const stream = agent.runStream('Why is the sky blue?');
  const pieces: string[] = [];
  for await (const delta of stream) pieces.push(delta.content ?? '');
  const result = await stream.result;
  log(`model: ${model.name} at ${model.baseURL}`);
  log(`streamed fragments: ${pieces.filter((p) => p !== '').length}`);
  log(`output: ${result.output}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
