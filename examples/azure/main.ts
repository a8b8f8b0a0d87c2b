/**
 * Azure OpenAI: a deployment addressed by endpoint, deployment name and an explicit api-version,
 * authenticated with the resource key (`api-key` header). Reads its configuration from the
 * environment here, in the application; without it the example prints what it needs and exits.
 */
import { Agent, defineTool } from 'golem';
import { azure } from 'golem/providers/azure';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => (isRecord(args) && args.city === 'Lagos' ? 'sunny, 31°C' : 'unknown city'),
});

export async function main(
  log: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const endpoint = env.AZURE_OPENAI_ENDPOINT ?? '';
  const apiKey = env.AZURE_OPENAI_API_KEY ?? '';
  const deployment = env.AZURE_OPENAI_DEPLOYMENT ?? '';
  if (endpoint === '' || apiKey === '' || deployment === '') {
    log(
      'azure: AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY and AZURE_OPENAI_DEPLOYMENT are needed; nothing was sent.',
    );
    log('Run it against your deployment:');
    log('  AZURE_OPENAI_ENDPOINT=https://<resource>.openai.azure.com \\');
    log('  AZURE_OPENAI_API_KEY=... AZURE_OPENAI_DEPLOYMENT=<deployment name> \\');
    log('  node -r @swc-node/register examples/azure/main.ts');
    log(
      'AZURE_OPENAI_API_VERSION picks the api-version (default 2024-10-21; "v1" for the v1 API).',
    );
    return;
  }
  const model = azure({
    endpoint,
    deployment,
    apiVersion: env.AZURE_OPENAI_API_VERSION ?? '2024-10-21',
    apiKey,
  });
  const agent = new Agent({ model, tools: [weather], instructions: 'Answer in one sentence.' });
  const result = await agent.run('What is the weather in Lagos?');
  log(`model: ${model.name} (${model.url})`);
  log(`output: ${result.output}`);
  log(`usage: ${result.usage.inputTokens} in, ${result.usage.outputTokens} out`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
