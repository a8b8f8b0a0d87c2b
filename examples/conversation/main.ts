/**
 * Conversation: an interactive multi-turn chat reading stdin. Each line is one run; each run's
 * `messages` become the next run's `history`. Between turns the conversation is stored as durable
 * JSON (`encodeMessages` / `decodeMessages`), the way a server keeps it in a database, and
 * `trimHistory(n)` bounds what is sent: only the newest `n` history messages reach the model, so
 * old context costs nothing — and is forgotten. The chat ends on `exit` or at the end of input
 * (Ctrl-D).
 *
 * The model is a `FunctionModel` that answers from the messages it receives, so it runs offline;
 * swap in a provider adapter (see examples/minimal) and nothing else changes.
 */
import { createInterface } from 'node:readline';
import { Agent, decodeMessages, encodeMessages, trimHistory } from 'golem';
import { FunctionModel, textResponse } from 'golem/testing';

/** A toy model that knows only what is still in the messages it receives. */
function chatModel(): FunctionModel {
  return new FunctionModel((request) => {
    const said = request.messages.filter((m) => m.role === 'user').map((m) => m.content ?? '');
    const latest = said[said.length - 1] ?? '';
    const name = said.map((s) => /my name is (\w+)/i.exec(s)?.[1]).find((n) => n !== undefined);
    if (/my name is/i.test(latest)) return textResponse(`Nice to meet you, ${name ?? 'stranger'}.`);
    if (/what is my name/i.test(latest)) {
      return textResponse(name === undefined ? "I don't know your name." : `Your name is ${name}.`);
    }
    return textResponse(`Noted: "${latest}"`);
  });
}

/**
 * Runs the chat over `input`, one prompt per line. On a terminal it prompts with `you> `;
 * otherwise (a pipe, a file) it echoes each prompt, so a transcript reads as a conversation.
 */
export async function main(
  log: (line: string) => void = console.log,
  input: NodeJS.ReadableStream = process.stdin,
): Promise<void> {
  const interactive = (input as { isTTY?: boolean }).isTTY === true;
  const model = chatModel();
  const agent = new Agent({
    model,
    instructions: 'You are a friendly assistant.',
    // Keep the newest 4 history messages of each run (the new prompt comes on top).
    historyProcessor: trimHistory(4),
  });

  log('Chat with a scripted assistant. Type "exit" or press Ctrl-D to end.');
  const lines = createInterface({
    input,
    ...(interactive && { output: process.stdout, prompt: 'you> ' }),
    terminal: interactive,
    crlfDelay: Infinity,
  });
  let stored = '[]'; // stands in for a database row holding the conversation
  let turns = 0;
  if (interactive) lines.prompt();
  for await (const line of lines) {
    const prompt = line.trim();
    if (prompt === 'exit') break;
    if (prompt !== '') {
      if (!interactive) log(`you> ${prompt}`);
      const history = decodeMessages(stored); // validated on the way in: stored data is untrusted
      const result = await agent.run(prompt, { history });
      // The result holds the conversation as sent (trimmed) plus this turn: the store stays bounded.
      stored = encodeMessages(result.messages);
      turns++;
      const sent = model.lastRequest?.messages.length ?? 0;
      log(`bot> ${result.output}`);
      log(`     (the model saw ${sent} messages; ${result.messages.length} stored)`);
    }
    if (interactive) lines.prompt();
  }
  lines.close();
  log(`Bye: ${turns} turns, ${decodeMessages(stored).length} messages stored.`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
