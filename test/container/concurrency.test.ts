/**
 * One resolved singleton agent runs 100 times concurrently without cross-talk: each run's
 * evidence (messages, tool results, usage counts) and deps belong to that run alone. The same
 * holds for 100 concurrent request scopes.
 */
import type { ModelRequest, RunContext, ToolContext } from 'golem';
import { Agent, DEPS_TYPE, Instructions, NoArgs, Tool } from 'golem/decorators';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { createGolemContainer, resolveAgent, runInScope } from 'golem/container';
import { CURRENT_USER, ScopedAgent, Transaction } from './fixtures/accounts';

interface Caller {
  name: string;
  seen: string[];
}

/** Lets other runs interleave: `n` turns of the event loop (no timers). */
async function yieldTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

@Agent()
@Instructions('Echo the caller.')
class EchoAgent {
  declare readonly [DEPS_TYPE]: Caller;

  @Instructions()
  caller(ctx: RunContext<Caller>): string {
    return `caller=${ctx.deps.name}`;
  }

  @Tool({ description: 'Who is calling' })
  async whoami(_args: NoArgs, ctx: ToolContext<Caller>): Promise<string> {
    ctx.deps.seen.push(ctx.callId);
    await yieldTurns(Number(ctx.deps.name.slice(1)) % 4);
    return `tool saw ${ctx.deps.name}`;
  }
}

/** Calls `whoami` once, then answers with what the tool said, for the caller its instructions name. */
function echoModel(): StreamFunctionModel {
  return new StreamFunctionModel(async (request: ModelRequest, emit) => {
    const name = /caller=(u\d+)/.exec(request.messages[0]?.content ?? '')?.[1] ?? '?';
    await yieldTurns(Number(name.slice(1)) % 5);
    const toolResult = request.messages.find((m) => m.role === 'tool');
    if (toolResult === undefined)
      return toolCallResponse([{ id: `call-${name}`, name: 'whoami', args: {} }]);
    const answer = `done for ${name}: ${toolResult.content ?? ''}`;
    await emit({ content: answer });
    return textResponse(answer);
  });
}

/** Every `u<n>` mentioned in a run's messages. */
function callersIn(messages: unknown): Set<string> {
  return new Set(JSON.stringify(messages).match(/u\d+/g) ?? []);
}

const RUNS = 100;
const names = Array.from({ length: RUNS }, (_, i) => `u${i}`);

test('100 concurrent runs on one resolved agent keep their evidence and deps apart', async () => {
  const model = echoModel();
  const container = createGolemContainer({ env: {}, defaultModel: model, agents: [EchoAgent] });
  const agent = resolveAgent(container, EchoAgent);
  const callers = names.map((name): Caller => ({ name, seen: [] }));
  const results = await Promise.all(
    callers.map((deps, i) =>
      i % 2 === 0
        ? agent.run(`hello from ${deps.name}`, { deps })
        : agent.runStream(`hello from ${deps.name}`, { deps }).result,
    ),
  );
  results.forEach((result, i) => {
    const name = names[i] ?? '';
    expect(result.output).toBe(`done for ${name}: tool saw ${name}`);
    expect([...callersIn(result.messages)]).toEqual([name]);
    expect(result.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect({ requests: result.requests, toolCalls: result.toolCalls }).toEqual({
      requests: 2,
      toolCalls: 1,
    });
    expect(callers[i]?.seen).toEqual([`call-${name}`]);
  });
  expect(model.calls).toBe(2 * RUNS);
  expect(resolveAgent(container, EchoAgent)).toBe(agent);
});

test('100 concurrent request scopes each build and close their own collaborators', async () => {
  Transaction.opened = [];
  Transaction.closed = [];
  const container = createGolemContainer({
    env: {},
    defaultModel: echoScopedModel(),
    agents: [ScopedAgent],
  });
  const outputs = await Promise.all(
    names.map((name) =>
      runInScope(
        container,
        ScopedAgent,
        (scope) => {
          scope.bind(CURRENT_USER).toConstantValue({ name });
          scope.bind(Transaction).toSelf().inSingletonScope();
        },
        async (agent) => (await agent.run(`hello from ${name}`)).output,
      ),
    ),
  );
  outputs.forEach((output, i) => {
    expect(output).toMatch(new RegExp(`^scoped user ${names[i] ?? ''} in transaction \\d+$`));
  });
  expect(new Set(outputs.map((o) => /transaction (\d+)/.exec(o)?.[1])).size).toBe(RUNS);
  expect(Transaction.opened).toHaveLength(RUNS);
  const byId = (a: number, b: number) => a - b;
  expect([...Transaction.closed].sort(byId)).toEqual([...Transaction.opened].sort(byId));
});

/** Calls `whoami`, then answers with its result. */
function echoScopedModel(): StreamFunctionModel {
  return new StreamFunctionModel(async (request: ModelRequest) => {
    const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    await yieldTurns(prompt.length % 3);
    const toolResult = request.messages.find((m) => m.role === 'tool');
    if (toolResult === undefined) return toolCallResponse([{ id: 'c1', name: 'whoami', args: {} }]);
    return textResponse(toolResult.content ?? '');
  });
}
