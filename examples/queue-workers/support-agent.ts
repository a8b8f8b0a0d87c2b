/**
 * The agent both worker processes run: a support agent that looks an order up and refunds it — the
 * refund needs a human's approval. The model is an offline stand-in that streams its answer.
 */
import { appendFileSync } from 'node:fs';
import { Agent, defineTool } from 'golem';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';

/** What a queued run carries: plain JSON (the ledger file stands in for the bank). */
export interface SupportDeps {
  customer: string;
}

/** The support agent; `ledger` is the file refunds are written to (the side effect to count). */
export function supportAgent(ledger: string): Agent<SupportDeps, string, true> {
  const lookup = defineTool<SupportDeps>({
    name: 'lookup',
    description: 'Look an order up.',
    schema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
    idempotent: true, // a read: safe to run again after a crash
    execute: (args, ctx) =>
      `${(args as { order: string }).order} for ${ctx.deps.customer}: delivered, 25 EUR`,
  });
  const refund = defineTool<SupportDeps>({
    name: 'refund',
    description: 'Refund an order.',
    schema: {
      type: 'object',
      properties: { order: { type: 'string' }, eur: { type: 'number' } },
      required: ['order', 'eur'],
    },
    approval: true, // a human decides, in another process, maybe hours later
    execute: (args) => {
      const { order, eur } = args as { order: string; eur: number };
      appendFileSync(ledger, `${eur} EUR for ${order}\n`);
      return `refunded ${eur} EUR for ${order}`;
    },
  });
  const model = new StreamFunctionModel(async (request, emit) => {
    const results = request.messages.filter((m) => m.role === 'tool').length;
    if (results === 0)
      return toolCallResponse([{ id: 'lookup-1', name: 'lookup', args: { order: 'A-17' } }]);
    if (results === 1)
      return toolCallResponse([
        { id: 'refund-1', name: 'refund', args: { order: 'A-17', eur: 25 } },
      ]);
    for (const piece of ['Refunded ', '25 EUR ', 'for order A-17.']) await emit({ content: piece });
    return textResponse('Refunded 25 EUR for order A-17.');
  });
  return new Agent({ model, tools: [lookup, refund], name: 'support', deferredTools: true });
}
