/**
 * Go `ExampleWithToolRetries`: a tool rejecting correctable arguments. The run delivers the
 * rejection as the call's tool result, and the model calls again with fixed arguments within the
 * configured budget.
 */
import { Agent, ModelRetry, defineTool, type Model } from 'golem';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** learningModel requests the roll tool with an invalid argument first, then corrects the call. */
function learningModel(): Model {
  let calls = 0;
  return {
    async generate(request) {
      const last = request.messages[request.messages.length - 1];
      if (last?.role === 'tool' && !(last.content ?? '').includes('rejected')) {
        return {
          message: { role: 'assistant', content: `the die ${last.content ?? ''}` },
          usage: { inputTokens: 0, outputTokens: 0 },
        };
      }
      calls++;
      const n = calls > 1 ? 4 : 0;
      return {
        message: {
          role: 'assistant',
          toolCalls: [{ id: `call-${calls}`, name: 'roll', args: `{"n":${n}}` }],
        },
        usage: { inputTokens: 0, outputTokens: 0 },
      };
    },
  };
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const roll = defineTool({
    name: 'roll',
    description: 'Roll a die; n must be positive.',
    schema: { type: 'object', properties: { n: { type: 'integer' } } },
    execute: (args) => {
      const n = isRecord(args) && typeof args.n === 'number' ? args.n : 0;
      if (n <= 0) throw new ModelRetry(`n must be positive, got ${n}`);
      return `rolled ${n}`;
    },
  });

  const agent = new Agent({ model: learningModel(), tools: [roll], toolRetries: 2 });

  const result = await agent.run('roll a 4');

  log(result.output);
  log(`${result.messages.length} messages in the corrected run`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
