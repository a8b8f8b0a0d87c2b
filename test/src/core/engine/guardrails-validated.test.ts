/**
 * Tool guardrails check validated arguments: a `defineTool` tool's `args` schema or `parse` runs
 * first (bad calls are corrections the guardrails never see), `before`/`after` get the validated
 * value, and a rewrite reaches the tool as it is.
 */
import { z } from 'zod';
import { Agent, defineTool, verdict, type GuardrailToolCall, type Tool } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

class Amount {
  constructor(readonly cents: number) {}
}

function runOnce(tool: Tool, args: Record<string, unknown>, seen: unknown[], rewrite?: unknown) {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 't', name: tool.name, args }]),
    toolCallResponse([{ id: 'u', name: tool.name, args: { amount: '7' } }]),
    textResponse('ok'),
  ]);
  const agent = new Agent({
    model,
    tools: [tool],
    toolRetries: 1,
    guardrails: {
      tool: [
        {
          name: 'watch',
          before: (call: GuardrailToolCall) => {
            seen.push(['before', call.args]);
            return rewrite === undefined ? undefined : verdict.rewrite(rewrite);
          },
          after: (call) => void seen.push(['after', call.args, call.result]),
        },
      ],
    },
  });
  return { model, run: agent.run('go') };
}

test('an args schema validates first: the guardrail sees its output (transforms applied)', async () => {
  const ran: unknown[] = [];
  const transfer = defineTool({
    name: 'transfer',
    args: z.object({ amount: z.string().transform((text) => Number(text) * 100) }),
    execute: (args) => (ran.push(args), `sent ${args.amount}`),
  });
  const seen: unknown[] = [];
  const { model, run } = runOnce(transfer, { amount: 12 }, seen);
  await run;
  // The first call (a number, not a string) is a correction the guardrail never saw.
  expect(model.requests[1]?.messages.at(-1)?.content).toContain('amount');
  expect(seen).toEqual([
    ['before', { amount: 700 }],
    ['after', { amount: 700 }, 'sent 700'],
  ]);
  expect(ran).toEqual([{ amount: 700 }]);
});

test('a parse hook validates first; a rewrite of the validated value reaches the tool as it is', async () => {
  const ran: unknown[] = [];
  const transfer = defineTool<unknown, Amount>({
    name: 'transfer',
    schema: { type: 'object', properties: { amount: { type: 'string' } } },
    parse: (args) => new Amount(Number((args as { amount: string }).amount)),
    execute: (args) => (ran.push(args), `sent ${args.cents}`),
  });
  const seen: unknown[] = [];
  const capped = new Amount(5);
  const { run } = runOnce({ ...transfer, sequential: true }, { amount: '12' }, seen, capped);
  await run;
  expect(seen[0]).toEqual(['before', new Amount(12)]);
  expect((seen[0] as unknown[])[1]).toBeInstanceOf(Amount);
  expect(ran[0]).toBe(capped);
  expect(seen[1]).toEqual(['after', capped, 'sent 5']);
});

test('a wrapped execute validates on its own: the guardrail sees the parsed arguments', async () => {
  const transfer = defineTool({
    name: 'transfer',
    args: z.object({ amount: z.string().transform(Number) }),
    execute: (args) => `sent ${args.amount}`,
  });
  const wrapped: Tool = { ...transfer, execute: (args, ctx) => transfer.execute(args, ctx) };
  const seen: unknown[] = [];
  await runOnce(wrapped, { amount: '3' }, seen).run;
  expect(seen[0]).toEqual(['before', { amount: '3' }]);
  expect(seen[1]).toEqual(['after', { amount: '3' }, 'sent 3']);
});
