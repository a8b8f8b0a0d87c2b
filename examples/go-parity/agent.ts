/**
 * Go `ExampleAgent`: an agent that executes a typed tool with an explicit dependency value and
 * returns the full run evidence.
 */
import { Agent, defineTool, type Model } from 'golem';

/**
 * diceModel scripts the tool exchange: it requests the player-name tool once, then produces a
 * final answer. Real applications use a provider adapter as the model.
 */
const diceModel: Model = {
  async generate(request) {
    for (const message of request.messages) {
      if (message.role === 'tool') {
        return {
          message: { role: 'assistant', content: `winner: ${message.content ?? ''}` },
          usage: { inputTokens: 54, outputTokens: 2 },
        };
      }
    }
    return {
      message: {
        role: 'assistant',
        toolCalls: [{ id: 'call-1', name: 'get_player_name', args: '{}' }],
      },
      usage: { inputTokens: 54, outputTokens: 2 },
    };
  },
};

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // The dependency type is `string`: the player's name, handed to every tool as ctx.deps.
  const getPlayerName = defineTool<string>({
    name: 'get_player_name',
    description: "Get the player's name.",
    schema: '{"type":"object"}',
    execute: (_args, ctx) => ctx.deps,
  });

  // The default decoder, decodeText(), returns the final response's content as the output.
  const agent = new Agent<string>({ model: diceModel, tools: [getPlayerName] });

  const result = await agent.run('My guess is 4', { deps: 'Anne' });
  // A run may pause on deferred tools (none here); checking `pending` narrows `output` to a string.

  log(result.output);
  log(`${result.messages.length} messages, ${result.usage.outputTokens} output tokens`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
