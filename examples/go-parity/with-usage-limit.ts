/**
 * Go `ExampleWithUsageLimit`: a run stopped at the usage stage. The response that crosses the bound
 * fails the run, with the crossed dimension inspectable through the typed cause.
 */
import { Agent, RunError, UsageLimitError, type Model } from 'golem';

/** verboseModel reports heavy usage on every response. */
const verboseModel: Model = {
  async generate() {
    return {
      message: { role: 'assistant', content: 'an expensive answer' },
      usage: { inputTokens: 1200, outputTokens: 800 },
    };
  },
};

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent({ model: verboseModel, usageLimit: { totalTokens: 1000 } });

  try {
    await agent.run('answer');
    throw new Error('expected the usage limit to stop the run');
  } catch (error) {
    if (!RunError.is(error) || !UsageLimitError.is(error.cause)) throw error;
    log(error.stage);
    log(error.cause.message);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
