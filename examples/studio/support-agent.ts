/**
 * The support agent of the studio example: it looks orders up and refunds them — a refund waits
 * for a person's approval — on an offline `FunctionModel` that decides from what it receives.
 */
import { Agent, defineTool, type Message, type RunStore } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Finds an order by its number.',
  schema: {
    type: 'object',
    properties: { order: { type: 'string' } },
    required: ['order'],
    additionalProperties: false,
  },
  execute: (args) => `order ${(args as { order: string }).order}: delivered, 49.90 EUR`,
});

/** Refunds actually made (a refund runs only once approved). */
export const refunds: string[] = [];

const refund = defineTool({
  name: 'refund',
  description: 'Refunds an order. A person approves every refund.',
  schema: {
    type: 'object',
    properties: { order: { type: 'string' } },
    required: ['order'],
    additionalProperties: false,
  },
  approval: true,
  execute: (args) => {
    const { order } = args as { order: string };
    refunds.push(order);
    return `refunded ${order}`;
  },
});

function last(messages: readonly Message[]): Message | undefined {
  return messages[messages.length - 1];
}

/** Decides from what it receives: look up, refund when asked, then answer from the results. */
const model = new FunctionModel((request) => {
  const latest = last(request.messages);
  const asked = request.messages.find((m) => m.role === 'user')?.content ?? '';
  const order = /A-\d+/.exec(asked)?.[0] ?? 'A-0';
  if (latest?.role === 'user') {
    return asked.toLowerCase().includes('refund')
      ? toolCallResponse([{ id: 'refund-1', name: 'refund', args: { order } }])
      : toolCallResponse([{ id: 'lookup-1', name: 'lookup_order', args: { order } }]);
  }
  return textResponse(`Done: ${latest?.content ?? ''}.`);
});

/** The support agent, checkpointing in `store` (its name keys it in the studio). */
export function supportAgent(store: RunStore): Agent<unknown, string, true> {
  return new Agent({
    name: 'support',
    description: 'Looks orders up and refunds them (a person approves each refund).',
    instructions: 'You help shoppers with their orders.',
    model,
    tools: [lookupOrder, refund],
    deferredTools: true,
    store,
  });
}
