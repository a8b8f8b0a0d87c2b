/**
 * Typed stream events: `runStream(...).events` yields what a UI renders — turn boundaries, text,
 * tool calls with their id and name on every event, tool results, and a last `finish` (or
 * `error`) event. `textStream` yields only the text. `resumeStream` streams a paused run's
 * continuation after a human decision.
 */
import { Agent, defineTool, type RunStreamEvent } from 'golem';
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

const bookTaxi = defineTool({
  name: 'book_taxi',
  description: 'Book a taxi (a person approves it first).',
  schema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
  approval: true,
  execute: (args) => `taxi booked to ${isRecord(args) ? String(args.to) : '?'}`,
});

/**
 * A streaming model written as a function. This provider sends no call ids: the engine gives
 * each call its id, the same in the events and in the result's messages.
 */
const model = new StreamFunctionModel(async (request, emit) => {
  const results = request.messages.filter((message) => message.role === 'tool');
  if (results.length === 0) {
    await emit({ content: 'Let me check.' });
    await emit({ toolCalls: [{ index: 0, name: 'get_weather', argsFragment: '{"city":' }] });
    await emit({ toolCalls: [{ index: 0, argsFragment: '"Lagos"}' }] });
    const turn = toolCallResponse([{ id: '', name: 'get_weather', args: '{"city":"Lagos"}' }]);
    turn.message.content = 'Let me check.';
    return turn;
  }
  if (results.length === 1) {
    const words = ['It is ', `${results[0]?.content ?? ''}. `, 'Booking a taxi.'];
    for (const word of words) await emit({ content: word });
    // The call is not streamed: its events come when the turn ends.
    const turn = toolCallResponse([{ id: 'taxi-1', name: 'book_taxi', args: { to: 'the beach' } }]);
    turn.message.content = words.join('');
    return turn;
  }
  await emit({ content: `Done: ${results[1]?.content ?? ''}.` });
  return textResponse(`Done: ${results[1]?.content ?? ''}.`);
});

/** One line per event, as a UI would render it. */
function describe(event: RunStreamEvent<string>): string {
  switch (event.type) {
    case 'turn-start':
      return `turn ${event.turn} starts`;
    case 'text-delta':
      return `  text ${JSON.stringify(event.text)}`;
    case 'tool-call-start':
      return `  call ${event.callId} ${event.toolName} starts`;
    case 'tool-call-delta':
      return `  call ${event.callId} ${event.toolName} args += ${event.argsDelta}`;
    case 'tool-call-end':
      return `  call ${event.callId} ${event.toolName} ${event.args}`;
    case 'turn-end':
      return `turn ${event.turn} ends (${event.finishReason ?? 'no finish reason'})`;
    case 'tool-result':
      return `result of ${event.callId}: ${event.result}`;
    case 'tool-error':
      return `error of ${event.callId}`;
    case 'deferred':
      return `paused: ${event.pending.approvals.map((p) => `${p.toolName} ${p.args}`).join(', ')}`;
    case 'finish':
      return event.result.pending === undefined
        ? `finish: ${event.result.output}`
        : 'finish (paused)';
    case 'error':
      return `error at ${event.error.stage}`;
    default:
      return event.type;
  }
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent({ model, tools: [getWeather, bookTaxi], deferredTools: true });

  log('-- runStream(...).events');
  const stream = agent.runStream('Weather in Lagos? Then book me a taxi to the beach.');
  for await (const event of stream.events) log(describe(event));
  const paused = await stream.result;
  const call = paused.messages.find((message) => message.toolCalls !== undefined)?.toolCalls?.[0];
  log(`the engine's id is in the messages too: ${call?.id ?? ''}`);

  log('-- resumeStream(...).textStream after the approval');
  const resumed = agent.resumeStream(paused.messages, {
    approvals: { 'taxi-1': { approved: true } },
  });
  for await (const text of resumed.textStream) log(`text ${JSON.stringify(text)}`);
  log(`output: ${(await resumed.result).output ?? ''}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
