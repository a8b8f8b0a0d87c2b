/**
 * The agents Golem Studio serves in this example (`golem studio examples/studio/agents.ts`): a
 * support agent that looks orders up and refunds them — a refund waits for a person's approval —
 * on an offline `FunctionModel`, checkpointing its runs in the SQLite file `STUDIO_DB` names
 * (default `studio-example.db` in the current folder).
 */
import { Agent, defineTool, type Message } from 'golem';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** The run store the agents checkpoint in (and the studio reads). */
export const store = sqliteStore({ path: process.env.STUDIO_DB ?? 'studio-example.db' });

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

/** The support agent (its name keys it in the studio). */
export const support = new Agent({
  name: 'support',
  description: 'Looks orders up and refunds them (a person approves each refund).',
  instructions: 'You help shoppers with their orders.',
  model,
  tools: [lookupOrder, refund],
  deferredTools: true,
  store,
});
