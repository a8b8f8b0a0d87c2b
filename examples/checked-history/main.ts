/**
 * Checked history: carrying a conversation from run to run without checking it again.
 *
 * A run given a plain array as `history` copies it, validates every message and repairs the
 * call/result pairing — every run, because the caller may have changed the array since. A checked
 * history (`Agent.history(messages)`, or a result's `result.history`) was copied, validated,
 * repaired and frozen once; a run uses it as it is, so a long conversation costs almost nothing to
 * carry. This example keeps a few-shot prefix as a checked history shared by every conversation,
 * runs a 100-turn chat that passes each result's `history` to the next run, and shows what the
 * checks still catch.
 */
import { Agent, RunInputError, defineTool, type Message } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** A toy model: it looks a word up with the tool, then answers from the tool's result. */
function dictionaryModel(): FunctionModel {
  return new FunctionModel((request) => {
    const last = request.messages[request.messages.length - 1];
    if (last?.role === 'tool') return textResponse(`It means: ${last.content ?? ''}`);
    const word = /define (\w+)/i.exec(last?.content ?? '')?.[1] ?? 'nothing';
    return toolCallResponse([
      { id: `call-${request.messages.length}`, name: 'define', args: { word } },
    ]);
  });
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const define = defineTool({
    name: 'define',
    description: 'Looks a word up',
    schema: {
      type: 'object',
      properties: { word: { type: 'string' } },
      required: ['word'],
    },
    execute: ({ word }: { word: string }) => `a word of ${word.length} letters`,
  });
  const agent = new Agent({
    model: dictionaryModel(),
    instructions: 'You define words.',
    tools: [define],
  });

  // A few-shot prefix, checked once and shared by every conversation (any agent accepts it).
  const fewShot = Agent.history([
    { role: 'user', content: 'define cat' },
    { role: 'assistant', toolCalls: [{ id: 'shot-1', name: 'define', args: '{"word":"cat"}' }] },
    { role: 'tool', toolCallId: 'shot-1', toolName: 'define', content: 'a word of 3 letters' },
    { role: 'assistant', content: 'It means: a word of 3 letters' },
  ]);
  log(`few-shot prefix: ${fewShot.length} messages, frozen: ${Object.isFrozen(fewShot)}`);

  // A 100-turn chat: each run continues from the previous result's checked history.
  let history: readonly Message[] = fewShot;
  for (let turn = 1; turn <= 100; turn++) {
    const result = await agent.run(`define word${turn}`, { history });
    history = result.history; // checked: only this run's new messages were copied and frozen
    if (turn === 1 || turn === 100)
      log(`turn ${turn}: "${result.output}" — history of ${history.length} messages`);
  }
  // Messages of the prefix are carried by reference from history to history, never copied again.
  log(
    `the prefix's messages are the same objects after 100 runs: ${fewShot.every((m, i) => history[i + 1] === m)}`,
  );

  // A checked history cannot change: pushing to it or editing a message throws.
  try {
    (history as Message[]).push({ role: 'user', content: 'sneaked in' });
  } catch (error) {
    log(`pushing to a checked history: ${(error as Error).name}`);
  }

  // The checks still run once, when the history is made: a malformed message is refused there.
  try {
    Agent.history([{ role: 'user', content: 'hi' }, { role: 'robot', content: 'beep' } as never]);
  } catch (error) {
    if (RunInputError.is(error)) log(`a malformed history: ${error.message}`);
  }

  // An unanswered call is repaired when the history is made (an "interrupted" result).
  const repaired = Agent.history([
    { role: 'user', content: 'define dog' },
    { role: 'assistant', toolCalls: [{ id: 'lost', name: 'define', args: '{"word":"dog"}' }] },
  ]);
  log(`repaired: ${repaired.map((m) => m.role).join(', ')}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
