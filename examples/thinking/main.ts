/**
 * Thinking: reasoning models return thinking blocks — readable text with a provider signature, or
 * redacted (encrypted) payloads. They are kept on the assistant messages of the evidence and sent
 * back unchanged on later turns and runs, as providers require for signed reasoning. Request
 * thinking with `modelSettings.thinking`; each adapter maps it to its provider.
 */
import {
  Agent,
  ModelRetry,
  defineTool,
  redactedThinking,
  signedThinking,
  type Message,
  type ModelResponse,
} from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const calculator = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  schema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  parse: (args) => {
    if (!isRecord(args) || typeof args.a !== 'number' || typeof args.b !== 'number')
      throw new ModelRetry('a and b must be numbers');
    return { a: args.a, b: args.b };
  },
  execute: ({ a, b }) => String(a + b),
});

/** A reasoning turn: signed thinking, a redacted block, then a tool call bound to a signature. */
const reasoningTurn: ModelResponse = {
  message: {
    role: 'assistant',
    thinking: [
      signedThinking('The user wants a sum; I should use the add tool.', 'sig-7f3a'),
      redactedThinking('ENC:q83hd0a=='),
    ],
    toolCalls: [{ id: 'call-1', name: 'add', args: '{"a":19,"b":23}', signature: 'call-sig-01' }],
  },
  usage: { inputTokens: 40, outputTokens: 25 },
};

function describeThinking(message: Message): string[] {
  return (message.thinking ?? []).map((block) =>
    block.redacted !== undefined
      ? `redacted ${block.redacted}`
      : `"${block.text ?? ''}" signed ${block.signature ?? '(unsigned)'}`,
  );
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const model = new ScriptedModel([
    reasoningTurn,
    textResponse('19 + 23 = 42.'),
    textResponse('Yes: 42 is even.'),
  ]);
  const agent = new Agent({
    model,
    tools: [calculator],
    modelSettings: { thinking: { mode: 'adaptive' } },
  });

  const first = await agent.run('What is 19 + 23?');
  log(`output: ${first.output}`);
  log(`thinking setting sent: ${JSON.stringify(model.requests[0]?.settings?.thinking)}`);

  // The blocks are evidence on the assistant message that produced them.
  const reasoning = first.messages.find((m) => m.thinking !== undefined);
  if (reasoning === undefined) throw new Error('no thinking in the evidence');
  for (const line of describeThinking(reasoning)) log(`evidence: ${line}`);
  log(`call signature kept: ${reasoning.toolCalls?.[0]?.signature ?? '(none)'}`);

  // The next turn of the same run replayed them byte for byte...
  const replayedInRun = model.requests[1]?.messages.find((m) => m.thinking !== undefined);
  log(
    `replayed on the next turn unchanged: ${JSON.stringify(replayedInRun) === JSON.stringify(reasoning)}`,
  );

  // ...and so does a later run continuing the conversation.
  const second = await agent.run('Is that even?', { history: first.messages });
  const replayedLater = model.lastRequest?.messages.find((m) => m.thinking !== undefined);
  log(`output: ${second.output}`);
  log(
    `replayed in the next run unchanged: ${JSON.stringify(replayedLater) === JSON.stringify(reasoning)}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
