/**
 * Go `ExampleAgent_RunWithHistory`: a conversation across two runs. The first result's messages
 * become the second run's history, and the second result carries the full chained conversation.
 */
import { Agent, type Model } from 'golem';

/** conversationModel answers with the last user prompt it has seen. */
const conversationModel: Model = {
  async generate(request) {
    let last = '';
    for (const message of request.messages) {
      if (message.role === 'user') last = message.content ?? '';
    }
    return {
      message: { role: 'assistant', content: `heard: ${last}` },
      usage: { inputTokens: 0, outputTokens: 0 },
    };
  },
};

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent({ model: conversationModel });

  const first = await agent.run('hello');
  const second = await agent.run('goodbye', { history: first.messages });

  log(first.output);
  log(second.output);
  log(`${second.messages.length} messages in the chained conversation`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
