/**
 * Partial evidence: a run whose provider fails after a side-effecting tool already ran. The
 * RunError keeps what the run produced (`error.partial`), so the conversation resumes from it
 * with `history` — and the tool is not executed a second time.
 */
import { Agent, ModelHTTPError, RunError, defineTool, type Message, type Model } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The run's dependencies: an outbox standing in for a mail service. */
interface BillingDeps {
  outbox: string[];
}

/** A side effect we must not repeat: every execution sends an invoice. */
const sendInvoice = defineTool<BillingDeps>({
  name: 'send_invoice',
  description: 'Email an invoice to a customer.',
  schema: { type: 'object', properties: { customer: { type: 'string' } }, required: ['customer'] },
  execute: (args, ctx) => {
    const customer =
      isRecord(args) && typeof args.customer === 'string' ? args.customer : 'unknown';
    ctx.deps.outbox.push(customer);
    return `invoice sent to ${customer}`;
  },
});

function billingAgent(model: Model): Agent<BillingDeps> {
  return new Agent<BillingDeps>({
    model,
    instructions: 'You handle billing.',
    tools: [sendInvoice],
  });
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const deps: BillingDeps = { outbox: [] };

  // The provider asks for the tool, then fails with an HTTP 500 on the next turn.
  const flaky = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'send_invoice', args: { customer: 'Ada' } }], {
      inputTokens: 30,
      outputTokens: 8,
    }),
    new ModelHTTPError({ status: 500, provider: 'scripted', message: 'internal server error' }),
  ]);

  let history: Message[];
  try {
    await billingAgent(flaky).run('Invoice Ada for March.', { deps });
    throw new Error('expected the provider failure to fail the run');
  } catch (error) {
    if (!RunError.is(error) || error.partial === undefined) throw error;
    log(`run failed at the ${error.stage} stage: ${error.message}`);
    // The evidence survives the failure: completed turns, tool results, usage and counts.
    const { messages, usage, requests, toolCalls } = error.partial;
    log(
      `partial evidence: ${messages.length} messages (${messages.map((m) => m.role).join(', ')})`,
    );
    log(
      `partial usage: ${usage.inputTokens} input + ${usage.outputTokens} output tokens; requests: ${requests}, tool calls: ${toolCalls}`,
    );
    history = messages;
  }
  log(`invoices sent so far: ${deps.outbox.length}`);

  // Resume once the provider is healthy: the partial messages become the history, so the model
  // sees the tool result it already has and answers without calling the tool again.
  const healthy = new ScriptedModel([
    textResponse('Ada has been invoiced for March.', { inputTokens: 40, outputTokens: 7 }),
  ]);
  const resumed = await billingAgent(healthy).run('Please finish the task.', { deps, history });
  log(`resumed output: ${resumed.output}`);
  log(
    `resumed conversation: ${resumed.messages.length} messages (${resumed.messages.map((m) => m.role).join(', ')})`,
  );
  log(`resumed run: requests: ${resumed.requests}, tool calls: ${resumed.toolCalls}`);
  log(`invoices sent in total: ${deps.outbox.length} (to ${deps.outbox.join(', ')})`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
