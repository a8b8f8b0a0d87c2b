/**
 * Streaming: `runStream` returns an async iterable of fragments (text, tool-call arguments) across
 * every model turn, plus `result`, the same typed result `run` returns. Fragments are advisory
 * progress; the assembled result is canonical.
 */
import { Agent, defineTool, type Delta } from 'golem';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => (isRecord(args) && args.city === 'Lagos' ? 'sunny, 31°C' : 'unknown city'),
});

/**
 * A streaming model written as a function: it emits fragments the way a provider's SSE stream
 * delivers them, then returns the assembled response.
 */
const model = new StreamFunctionModel(async (request, emit) => {
  const toolResult = request.messages.find((message) => message.role === 'tool');
  if (toolResult === undefined) {
    // Turn 1: a tool call whose arguments arrive in pieces.
    await emit({ toolCalls: [{ index: 0, id: 'call-1', name: 'get_weather' }] });
    for (const piece of ['{"city":', '"Lagos"}'])
      await emit({ toolCalls: [{ index: 0, argsFragment: piece }] });
    return toolCallResponse([{ id: 'call-1', name: 'get_weather', args: '{"city":"Lagos"}' }]);
  }
  // Turn 2: the answer, word by word.
  const answer = `It is ${toolResult.content ?? ''} in Lagos.`;
  for (const word of answer.split(/(?<= )/)) await emit({ content: word });
  return textResponse(answer);
});

function describeDelta(delta: Delta): string {
  if (delta.content !== undefined) return `text ${JSON.stringify(delta.content)}`;
  const call = delta.toolCalls?.[0];
  if (call === undefined) return 'other fragment';
  return call.name !== undefined
    ? `tool call #${call.index} starts: ${call.name} [${call.id ?? ''}]`
    : `tool call #${call.index} args ${JSON.stringify(call.argsFragment ?? '')}`;
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent({ model, tools: [getWeather] });

  const stream = agent.runStream('Weather in Lagos?');
  // Iterate for fragments as they arrive, across the tool turn and the answer turn.
  for await (const delta of stream) log(`fragment: ${describeDelta(delta)}`);

  // The result settles with the run: the same shape as `run`, every turn in the evidence.
  const result = await stream.result;
  log(`output: ${result.output}`);
  log(`messages: ${result.messages.map((message) => message.role).join(', ')}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
