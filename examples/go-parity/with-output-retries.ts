/**
 * Go `ExampleWithOutputRetries`: a decoder rejecting a correctable response. The run feeds the
 * rejection back to the model, which answers again within the configured budget.
 */
import { Agent, ModelRetry, type Model } from 'golem';

/** pickyModel answers with a word first, then with the digit once corrected. */
function pickyModel(): Model {
  let calls = 0;
  return {
    async generate() {
      calls++;
      const content = calls > 1 ? '7' : 'seven';
      return {
        message: { role: 'assistant', content },
        usage: { inputTokens: 0, outputTokens: 0 },
      };
    },
  };
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent<undefined, number>({
    model: pickyModel(),
    // The decoder is the boundary where model text becomes application data.
    output: (response) => {
      const content = response.message.content ?? '';
      if (!/^[+-]?\d+$/.test(content.trim())) {
        // ModelRetry marks the rejection as correctable: it is fed back to the model.
        throw new ModelRetry(`answer must be an integer, got ${JSON.stringify(content)}`);
      }
      return Number.parseInt(content.trim(), 10);
    },
    outputRetries: 2,
  });

  const result = await agent.run('pick a number');

  log(String(result.output));
  log(`${result.messages.length} messages in the corrected conversation`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
