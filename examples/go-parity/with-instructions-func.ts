/**
 * Go `ExampleWithInstructionsFunc`: instructions resolved per run. The function's result joins the
 * static instructions (separated by a blank line), and both reach the model as the system message.
 */
import { Agent, type Model } from 'golem';

/** instructedModel echoes the instructions it was given, if any. */
const instructedModel: Model = {
  async generate(request) {
    for (const message of request.messages) {
      if (message.role === 'system') {
        return {
          message: { role: 'assistant', content: message.content ?? '' },
          usage: { inputTokens: 0, outputTokens: 0 },
        };
      }
    }
    return {
      message: { role: 'assistant', content: '' },
      usage: { inputTokens: 0, outputTokens: 0 },
    };
  },
};

interface Player {
  name: string;
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent<Player>({
    model: instructedModel,
    // Static text first, then a function evaluated at the start of every run with its deps.
    instructions: ['Always greet the player.', (ctx) => `The player's name is ${ctx.deps.name}.`],
  });

  const result = await agent.run('greet', { deps: { name: 'Anne' } });

  log(result.output);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
