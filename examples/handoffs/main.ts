/**
 * Handoffs: a triage agent hands the conversation to billing or support. Each handoff is a
 * `transfer_to_<name>` tool the triage model sees; calling one continues the same run in the
 * target, with its instructions and tools. The support handoff has an input filter that drops the
 * tool chatter, so support reads the customer's words only. `result.agent` names who answered and
 * `result.handoffs` the path; a `handoff` run event marks each transfer.
 *
 * Offline by default: the models are `FunctionModel`s that decide from what they receive. With
 * OPENAI_API_KEY set, the same agents also run once against OpenAI (OPENAI_MODEL, default
 * gpt-4o-mini).
 */
import { Agent, defineTool, type Message, type Model, type RunEvent } from 'golem';
import { openai } from 'golem/providers/openai';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** The last message a model received. */
function last(messages: readonly Message[]): Message | undefined {
  return messages[messages.length - 1];
}

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Finds an order by its number.',
  schema: {
    type: 'object',
    properties: { order: { type: 'string' } },
    required: ['order'],
    additionalProperties: false,
  },
  execute: (args) => `order ${(args as { order: string }).order}: charged twice, 42.00 EUR each`,
});

const refund = defineTool({
  name: 'refund',
  description: 'Refunds one charge of an order.',
  schema: {
    type: 'object',
    properties: { order: { type: 'string' } },
    required: ['order'],
    additionalProperties: false,
  },
  execute: (args) => `refunded 42.00 EUR on order ${(args as { order: string }).order}`,
});

/** Offline triage: looks the order up when one is named, then routes by what the customer said. */
const offlineTriage = new FunctionModel(
  (request) => {
    const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const order = /\b\d{4}\b/.exec(prompt)?.[0];
    if (last(request.messages)?.role === 'user' && order !== undefined)
      return toolCallResponse([{ id: 'look-1', name: 'lookup_order', args: { order } }]);
    const target = /charge|refund|invoice/i.test(prompt) ? 'billing' : 'support';
    return toolCallResponse([{ id: 'hand-1', name: `transfer_to_${target}` }]);
  },
  { name: 'function:triage' },
);

/** Offline billing: refunds the order it finds in the conversation, then confirms. */
const offlineBilling = new FunctionModel(
  (request) => {
    const previous = last(request.messages);
    if (previous?.toolName === 'refund')
      return textResponse(`Done: ${previous.content ?? ''}. Sorry about the double charge.`);
    const order = /order (\d{4})/.exec(request.messages.map((m) => m.content ?? '').join(' '));
    return toolCallResponse([{ id: 'refund-1', name: 'refund', args: { order: order?.[1] } }]);
  },
  { name: 'function:billing' },
);

/** Offline support: answers, saying how much of the conversation it was given. */
const offlineSupport = new FunctionModel(
  (request) => {
    const roles = request.messages.map((m) => m.role).join(', ');
    return textResponse(`Support here (I was given: ${roles}). Please update the app to 4.2.`);
  },
  { name: 'function:support' },
);

/** The three agents, on the given models. */
function agents(models: { triage: Model; billing: Model; support: Model }): Agent {
  const billing = new Agent({
    name: 'billing',
    model: models.billing,
    instructions: 'You are billing. Refund duplicate charges with the refund tool.',
    tools: [refund],
  });
  const support = new Agent({
    name: 'support',
    model: models.support,
    instructions: 'You are technical support. Answer in two sentences.',
  });
  return new Agent({
    name: 'triage',
    model: models.triage,
    instructions:
      'You route customers. Look the order up if one is named, then transfer: billing for charges and refunds, support for anything else. Never answer yourself.',
    tools: [lookupOrder],
    handoffs: [
      billing,
      {
        agent: support,
        description: 'Technical problems with the app or the account.',
        // Support reads the customer's words only: no tool calls, no tool results.
        inputFilter: ({ messages }) =>
          messages.filter((m) => m.role === 'user' || (m.role === 'assistant' && !m.toolCalls)),
      },
    ],
  });
}

/** Runs `prompt` through triage and prints the path, the answering agent and the answer. */
async function ask(triage: Agent, prompt: string, log: (line: string) => void): Promise<void> {
  log(`customer: ${prompt}`);
  const observer = (e: RunEvent): void => {
    if (e.kind === 'handoff') log(`  event: handoff ${e.from} -> ${e.to} (call ${e.callId})`);
  };
  const result = await triage.run(prompt, { observer });
  const path = [triage.name, ...(result.handoffs ?? []).map((h) => h.to)];
  log(`  path: ${path.join(' -> ')}`);
  log(`  answered by: ${result.agent}`);
  log(`  answer: ${result.output}`);
}

export async function main(
  log: (line: string) => void = console.log,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const offline = agents({
    triage: offlineTriage,
    billing: offlineBilling,
    support: offlineSupport,
  });
  await ask(offline, 'I was charged twice for order 1042.', log);
  log(`  billing received: ${offlineBilling.requests[0]?.messages.map((m) => m.role).join(', ')}`);
  await ask(offline, 'The app crashes when I open my order 1043.', log);

  const apiKey = env.OPENAI_API_KEY ?? '';
  if (apiKey === '') {
    log('OPENAI_API_KEY is not set: the agents ran offline only.');
    return;
  }
  const model = openai({ model: env.OPENAI_MODEL ?? 'gpt-4o-mini', apiKey });
  log(`--- against ${model.name}`);
  const online = agents({ triage: model, billing: model, support: model });
  await ask(online, 'I was charged twice for order 1042, please fix it.', log);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
