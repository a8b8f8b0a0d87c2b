/**
 * Conversation: multi-turn chat by chaining runs. Each result's `messages` becomes the next run's
 * `history`; between turns the conversation is stored as durable JSON (`encodeMessages` /
 * `decodeMessages`), the way a server keeps it in a database. `trimHistory(n)` bounds what is
 * sent: only the newest `n` history messages reach the model, so old context costs nothing —
 * and is forgotten.
 */
import { Agent, decodeMessages, encodeMessages, trimHistory } from 'golem';
import { FunctionModel, textResponse } from 'golem/testing';

/** A toy model that remembers a name only if it is still in the messages it receives. */
function forgetfulModel(): FunctionModel {
  return new FunctionModel((request) => {
    const prompts = request.messages.filter((m) => m.role === 'user').map((m) => m.content ?? '');
    const latest = prompts[prompts.length - 1] ?? '';
    const name = prompts.map((p) => /my name is (\w+)/i.exec(p)?.[1]).find((n) => n !== undefined);
    if (!latest.endsWith('?')) return textResponse('Noted.');
    return textResponse(name === undefined ? "I don't know your name." : `Your name is ${name}.`);
  });
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const model = forgetfulModel();
  const agent = new Agent({
    model,
    instructions: 'You are a friendly assistant.',
    // Keep the newest 4 history messages of each run (the new prompt comes on top).
    historyProcessor: trimHistory(4),
  });

  let stored = '[]'; // stands in for a database row holding the conversation
  for (const prompt of [
    'My name is Ada.',
    'I live in Lagos.',
    'What is my name?',
    'And now, what is my name?',
  ]) {
    const history = decodeMessages(stored); // validated on the way in: stored data is untrusted
    const result = await agent.run(prompt, { history });
    // The result holds the conversation as sent (trimmed) plus this turn, so the store stays bounded.
    stored = encodeMessages(result.messages);

    const sent = model.lastRequest?.messages.map((m) => m.role).join(', ') ?? '';
    log(`> ${prompt}`);
    log(`< ${result.output}`);
    log(`  model received: ${sent}`);
    log(`  stored: ${result.messages.length} messages`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
