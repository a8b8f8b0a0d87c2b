/**
 * Usage limits: `usageLimit` bounds a run's tokens (input, output, total), model requests and tool
 * executions. The run's cumulative usage is checked after every model response and tool batch; the
 * first crossed bound fails the run at the `usage` stage with a typed `UsageLimitError`, and the
 * evidence up to that point stays on `error.partial`.
 */
import { Agent, RunError, UsageLimitError, defineTool, type Model, type UsageLimit } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a term up.',
  schema: { type: 'object', properties: { term: { type: 'string' } } },
  execute: () => 'a definition',
});

/** A research assistant that looks two terms up, then answers. Each response reports usage. */
function researchModel(): Model {
  return new ScriptedModel([
    toolCallResponse(
      [
        { id: 'c1', name: 'lookup', args: { term: 'golem' } },
        { id: 'c2', name: 'lookup', args: { term: 'agent' } },
      ],
      { inputTokens: 400, outputTokens: 30 },
    ),
    textResponse('A golem is an animated servant; an agent acts for someone.', {
      inputTokens: 500,
      outputTokens: 60,
    }),
  ]);
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const limits: [label: string, limit: UsageLimit][] = [
    ['generous limits', { totalTokens: 2000, requests: 5, toolCalls: 5 }],
    // Bounds are checked after the fact: the batch that crosses a tool-call bound has run.
    ['at most 1 tool call', { toolCalls: 1 }],
    ['at most 50 output tokens', { outputTokens: 50 }],
    ['at most 1 request', { requests: 1 }],
  ];
  for (const [label, usageLimit] of limits) {
    const agent = new Agent({ model: researchModel(), tools: [lookup], usageLimit });
    try {
      const result = await agent.run('Define golem and agent.');
      const { inputTokens, outputTokens } = result.usage;
      log(
        `${label}: ok, ${inputTokens}+${outputTokens} tokens, ${result.requests} requests, ${result.toolCalls} tool calls`,
      );
    } catch (error) {
      if (!RunError.is(error) || !UsageLimitError.is(error.cause)) throw error;
      // The typed cause says which dimension was crossed, the bound, and the actual value.
      const { limitKind, limit, actual } = error.cause;
      log(`${label}: ${error.stage} stage, ${limitKind} limit ${limit} crossed with ${actual}`);
      log(`  message: ${error.cause.message}`);
      const partial = error.partial;
      if (partial !== undefined) {
        log(
          `  partial: ${partial.messages.length} messages, ${partial.usage.outputTokens} output tokens, ${partial.toolCalls} tool calls`,
        );
      }
    }
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
