/**
 * Deferred tools: a tool with an `approval` policy pauses the run instead of executing. The run
 * returns successfully with `result.pending` listing the calls awaiting a decision (no output, no
 * further model call). `agent.resume(state, decisions)` continues it: approved calls execute
 * now, with `ctx.approved` set; denied ones tell the model why. The paused run's `state` is one
 * JSON value, so the decision may come hours later, in another process.
 */
import { Agent, ModelRetry, defineTool } from 'golem';
import type { RunState } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface BankDeps {
  balance: { eur: number };
  transfers: string[];
}

interface Transfer {
  to: string;
  amount: number;
}

function parseTransfer(args: unknown): Transfer {
  if (
    !isRecord(args) ||
    typeof args.to !== 'string' ||
    typeof args.amount !== 'number' ||
    args.amount <= 0
  ) {
    throw new ModelRetry('send {"to": string, "amount": positive number}');
  }
  return { to: args.to, amount: args.amount };
}

const getBalance = defineTool<BankDeps>({
  name: 'get_balance',
  description: 'Current balance in EUR.',
  schema: { type: 'object' },
  execute: (_args, ctx) => `${ctx.deps.balance.eur} EUR`,
});

const transferFunds = defineTool<BankDeps, Transfer>({
  name: 'transfer_funds',
  description: 'Transfer EUR to a recipient.',
  schema: {
    type: 'object',
    properties: { to: { type: 'string' }, amount: { type: 'number' } },
    required: ['to', 'amount'],
  },
  parse: parseTransfer,
  // Transfers above 100 EUR need a human: the call pauses the run until someone decides.
  approval: (args) => parseTransfer(args).amount > 100,
  execute: ({ to, amount }, ctx) => {
    ctx.deps.balance.eur -= amount;
    ctx.deps.transfers.push(`${amount} EUR to ${to}${ctx.approved ? ' (approved)' : ''}`);
    return `sent ${amount} EUR to ${to}; balance ${ctx.deps.balance.eur} EUR`;
  },
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const model = new ScriptedModel([
    toolCallResponse([
      { id: 'c1', name: 'get_balance' },
      { id: 'c2', name: 'transfer_funds', args: { to: 'grocer', amount: 40 } },
      { id: 'c3', name: 'transfer_funds', args: { to: 'landlord', amount: 900 } },
      { id: 'c4', name: 'transfer_funds', args: { to: 'unknown-account', amount: 2500 } },
    ]),
    textResponse('Paid the grocer and the landlord; the 2500 EUR transfer was refused.'),
  ]);
  const agent = new Agent<BankDeps, string, true>({
    model,
    tools: [getBalance, transferFunds],
    deferredTools: true,
  });
  const deps: BankDeps = { balance: { eur: 5000 }, transfers: [] };

  const paused = await agent.run('Pay the grocer 40, the landlord 900 and unknown-account 2500.', {
    deps,
  });
  // Check `pending` before `output`: a paused run has no output yet.
  if (paused.pending === undefined) throw new Error('expected the run to pause');
  log('paused, awaiting approval:');
  for (const call of paused.pending.approvals)
    log(`  ${call.callId} ${call.toolName} ${call.args}`);
  log(`transfers so far: ${deps.transfers.join('; ')}`);
  log(`model calls so far: ${model.calls}`);

  // The paused run's state is one versioned JSON value: keep it anywhere (a database row, a
  // message) and continue from it later, in any process.
  const saved = JSON.stringify(paused.state);
  log(
    `saved state: version ${paused.state.version}, ${paused.state.status}, waiting for decisions`,
  );

  // A human decides; every pending call is resolved exactly once, by call id.
  const resumed = await agent.resume(
    JSON.parse(saved) as RunState,
    {
      approvals: {
        c3: { approved: true },
        c4: { approved: false, reason: 'recipient is not verified' },
      },
    },
    { deps },
  );
  if (resumed.pending !== undefined) throw new Error('unexpected second pause');
  log(`output: ${resumed.output}`);
  log(`transfers: ${deps.transfers.join('; ')}`);
  log(`model calls over both segments: ${resumed.state.requests}`);
  log('tool results the model saw:');
  for (const message of resumed.messages.filter((m) => m.role === 'tool'))
    log(`  ${message.toolCallId ?? ''}: ${message.content ?? ''}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
