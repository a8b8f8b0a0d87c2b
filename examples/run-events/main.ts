/**
 * Run events: an observer sees every step of a run as it happens — each provider attempt
 * (retries included), each tool execution, and each output correction. Events are advisory
 * (the result stays canonical) and an observer that throws never affects the run.
 */
import { Agent, ModelHTTPError, ModelRetry, defineTool, describeError, type RunEvent } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/**
 * One line per event: the kind, then what that kind carries — `switch (event.kind)` narrows the
 * event to its kind's fields (model events have `turn` and `attempt`, tool events `turn` and the
 * call, `output_rejected` the correction round in `attempt`).
 */
function describeEvent(event: RunEvent): string {
  switch (event.kind) {
    case 'model_start':
      return `model_start turn=${event.turn} attempt=${event.attempt}`;
    case 'model_end': {
      const head = `model_end turn=${event.turn} attempt=${event.attempt}`;
      return event.message === undefined
        ? `${head} error="${describeError(event.error)}"`
        : `${head} usage=${event.usage.inputTokens}+${event.usage.outputTokens}`;
    }
    case 'tool_start':
      return `tool_start turn=${event.turn} ${event.toolName}[${event.callId}] args=${event.args}`;
    case 'tool_end':
      return `tool_end turn=${event.turn} ${event.toolName}[${event.callId}] ${
        event.result !== undefined ? `result=${JSON.stringify(event.result)}` : 'failed'
      }`;
    case 'output_rejected':
      return `output_rejected round=${event.attempt} reason="${ModelRetry.is(event.error) ? event.error.reason : describeError(event.error)}"`;
    default:
      return event.kind;
  }
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const clock = defineTool({
    name: 'clock',
    description: 'The current time.',
    schema: { type: 'object' },
    execute: () => '09:30',
  });
  const model = new ScriptedModel([
    // Turn 0 fails once with a retryable 429, then asks for the tool.
    new ModelHTTPError({ status: 429, provider: 'scripted', message: 'rate limited' }),
    toolCallResponse([{ id: 'call-1', name: 'clock' }], { inputTokens: 12, outputTokens: 3 }),
    // Turn 1 answers in the wrong format; the decoder rejects it and a correction round starts
    // (turn numbers restart with each round; `attempt` on output_rejected numbers the round).
    textResponse('half past nine', { inputTokens: 20, outputTokens: 3 }),
    textResponse('09:30', { inputTokens: 30, outputTokens: 2 }),
  ]);
  const agent = new Agent({
    model,
    tools: [clock],
    maxAttempts: 2,
    sleep: async () => undefined, // no real waiting between attempts
    outputRetries: 1,
    output: (response) => {
      const text = response.message.content ?? '';
      if (!/^\d\d:\d\d$/.test(text)) throw new ModelRetry('answer with HH:MM only');
      return text;
    },
    // The agent's observer sees every run of this agent...
    onEvent: (event) => {
      log(describeEvent(event));
    },
  });

  // ...and a run's own observer sees just that run (after the agent's).
  let observed = 0;
  const result = await agent.run('What time is it?', {
    observer: () => {
      observed++;
    },
  });
  log(
    `output: ${result.output} (${observed} events seen by the run observer, ${result.requests} requests)`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
