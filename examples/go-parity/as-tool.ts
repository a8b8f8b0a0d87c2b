/**
 * Go `ExampleAgent_AsTool`: one agent exposed as another agent's tool. The planner's model passes a
 * prompt to the researcher tool; the specialist agent runs it and its output becomes the tool result.
 */
import { Agent, type Model } from 'golem';

/** delegatingModel hands the question to the researcher tool, then answers from its result. */
const delegatingModel: Model = {
  async generate(request) {
    for (const message of request.messages) {
      if (message.role === 'tool') {
        return {
          message: { role: 'assistant', content: `the researcher says: ${message.content ?? ''}` },
          usage: { inputTokens: 0, outputTokens: 0 },
        };
      }
    }
    return {
      message: {
        role: 'assistant',
        toolCalls: [{ id: 'call-1', name: 'researcher', args: '{"prompt":"capital of France?"}' }],
      },
      usage: { inputTokens: 0, outputTokens: 0 },
    };
  },
};

/** factModel stands in for the specialist's provider: one run, one fact. */
const factModel: Model = {
  async generate() {
    return {
      message: { role: 'assistant', content: 'Paris' },
      usage: { inputTokens: 0, outputTokens: 0 },
    };
  },
};

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const specialist = new Agent({ model: factModel });
  const research = specialist.asTool('researcher', 'Answers one geography question.');
  const planner = new Agent({ model: delegatingModel, tools: [research] });

  const result = await planner.run('I need the capital of France.');

  log(result.output);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
