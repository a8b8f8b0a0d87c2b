/**
 * Go `ExampleAgent_RunStream`: a run that streams every fragment to a callback while producing the
 * same typed result as `run`.
 */
import { Agent, type ModelResponse, type StreamingModel } from 'golem';

const answer: ModelResponse = {
  message: { role: 'assistant', content: 'good morning' },
  usage: { inputTokens: 0, outputTokens: 0 },
};

/** morningModel streams its answer as two fragments. */
const morningModel: StreamingModel = {
  async generate() {
    return answer;
  },
  async stream(_request, onDelta) {
    for (const fragment of ['good ', 'morning']) {
      // A handler error stops the stream; awaiting it lets an async handler apply backpressure.
      await onDelta({ content: fragment });
    }
    return answer;
  },
};

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent({ model: morningModel });

  const fragments: string[] = [];
  // `onDelta` is the callback form; the returned stream can also be iterated with `for await`.
  const stream = agent.runStream('greet me', {
    onDelta: (delta) => {
      fragments.push(delta.content ?? '');
    },
  });
  const result = await stream.result;

  log(fragments.join('|'));
  log(result.output);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
