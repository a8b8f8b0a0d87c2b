/**
 * AWS Bedrock: an agent on the Converse API adapter, `bedrock({ model, region })`, with a tool
 * round trip streamed fragment by fragment through ConverseStream. Signing and credentials come
 * from the AWS SDK (`@aws-sdk/client-bedrock-runtime`, an optional peer dependency) and its
 * standard credential chain. The adapter never reads the environment; this example checks
 * `AWS_REGION` and `AWS_ACCESS_KEY_ID` / `AWS_PROFILE` itself and, when they are missing, prints
 * what to set and exits cleanly without sending anything.
 */
import { Agent, defineTool } from 'golem';
import { bedrock } from 'golem/providers/bedrock';

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

function isSet(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const region = process.env.AWS_REGION;
  const hasCredentials = isSet(process.env.AWS_ACCESS_KEY_ID) || isSet(process.env.AWS_PROFILE);
  if (!isSet(region) || !hasCredentials) {
    log('AWS is not configured: this example calls Amazon Bedrock (Converse API).');
    log(
      'Set AWS_REGION and credentials (AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY, or AWS_PROFILE);',
    );
    log('BEDROCK_MODEL_ID is optional (default us.amazon.nova-micro-v1:0). Then run:');
    log(
      '  AWS_REGION=us-east-1 AWS_PROFILE=... node -r @swc-node/register examples/bedrock/main.ts',
    );
    log('It needs the optional peer dependency: npm install @aws-sdk/client-bedrock-runtime');
    log('Nothing was sent.');
    return;
  }

  // Credentials are resolved by the AWS SDK's standard chain (env vars, profile, SSO, IMDS…).
  const model = bedrock({
    model: process.env.BEDROCK_MODEL_ID ?? 'us.amazon.nova-micro-v1:0',
    region,
    maxTokens: 512,
  });
  try {
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
  } finally {
    model.destroy();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
