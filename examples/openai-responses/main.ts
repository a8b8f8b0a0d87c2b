/**
 * OpenAI Responses API: an agent on `openaiResponses({ model, apiKey })` with a local tool and the
 * provider-hosted web search, streamed. Reasoning items travel between turns as encrypted content
 * (nothing is stored at OpenAI), and the searches OpenAI ran and the pages the answer cites come
 * back as evidence on the assistant message. It needs `OPENAI_API_KEY` (the adapter never reads
 * the environment; this example does, and passes the key explicitly). Without the key it prints
 * what to set and exits cleanly.
 */
import { Agent, defineTool, webSearchTool } from 'golem';
import { openaiResponses } from 'golem/providers/openai-responses';

const getBooking = defineTool({
  name: 'get_booking',
  description: 'The traveller’s next booking: city and date.',
  schema: { type: 'object', properties: {}, additionalProperties: false },
  execute: () => '{"city":"Lagos","date":"tomorrow"}',
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const apiKey = process.env.OPENAI_API_KEY;
  if (apiKey === undefined || apiKey === '') {
    log('OPENAI_API_KEY is not set: this example calls the OpenAI Responses API.');
    log('Run it with a key (OPENAI_MODEL is optional, default gpt-5-mini):');
    log('  OPENAI_API_KEY=sk-... node -r @swc-node/register examples/openai-responses/main.ts');
    log('Nothing was sent.');
    return;
  }

  const model = openaiResponses({ model: process.env.OPENAI_MODEL ?? 'gpt-5-mini', apiKey });
  const agent = new Agent({
    model,
    instructions: 'Answer in two sentences. Look up the booking, then search the weather.',
    tools: [getBooking],
    hostedTools: [webSearchTool({ contextSize: 'low' })],
    modelSettings: {
      reasoningEffort: 'low',
      thinking: { mode: 'adaptive', includeThoughts: true },
    },
  });

  const stream = agent.runStream('Should I pack an umbrella for my next trip?');
  let fragments = 0;
  for await (const delta of stream) if (delta.content !== undefined) fragments++;
  const result = await stream.result;
  const answer = result.messages.at(-1);

  log(`model: ${model.name}`);
  log(`output: ${result.output}`);
  log(`text fragments streamed: ${fragments}`);
  log(`local tool calls: ${result.toolCalls}`);
  for (const call of answer?.hostedToolCalls ?? [])
    log(`hosted ${call.type} (${call.status ?? '?'}): ${call.input ?? ''}`);
  for (const cite of answer?.citations ?? []) log(`cites ${cite.url ?? cite.filename ?? '?'}`);
  const reasoning = result.messages.flatMap((m) => m.thinking ?? []);
  log(`reasoning blocks carried (encrypted): ${reasoning.filter((b) => b.signature).length}`);
  log(
    `usage: ${result.usage.inputTokens} in (${result.usage.cacheReadTokens ?? 0} cached), ${result.usage.outputTokens} out (${result.usage.reasoningTokens ?? 0} reasoning)`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
