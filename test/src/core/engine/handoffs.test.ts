import { Agent, ConfigError, RunError, defineTool, type Message, type RunEvent } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { memoryStore } from 'golem/stores/memory';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

function counter(name: string) {
  const calls: unknown[] = [];
  const tool = defineTool({
    name,
    description: `the ${name} tool`,
    schema: { type: 'object', properties: {}, additionalProperties: false },
    execute: (args) => {
      calls.push(args);
      return `${name} done`;
    },
  });
  return { tool, calls };
}

function systemOf(messages: readonly Message[]): string | undefined {
  return messages[0]?.role === 'system' ? messages[0].content : undefined;
}

describe('handoffs', () => {
  test('the model sees a transfer tool per target, and calling it continues the run in the target', async () => {
    const refund = counter('refund');
    const billingModel = new ScriptedModel([
      toolCallResponse([{ id: 'r1', name: 'refund' }]),
      textResponse('Refund issued.'),
    ]);
    const billing = new Agent({
      name: 'billing',
      model: billingModel,
      instructions: 'You handle billing.',
      tools: [refund.tool],
    });
    const triageModel = new ScriptedModel([
      toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }]),
    ]);
    const triage = new Agent({
      name: 'triage',
      model: triageModel,
      instructions: 'You route.',
      handoffs: [billing],
    });

    const result = await triage.run('I want a refund');

    expect(triageModel.requests[0]?.tools.map((t) => t.name)).toEqual(['transfer_to_billing']);
    expect(billingModel.requests).toHaveLength(2);
    const first = billingModel.requests[0];
    expect(systemOf(first?.messages ?? [])).toBe('You handle billing.');
    expect(first?.tools.map((t) => t.name)).toEqual(['refund']);
    expect(refund.calls).toHaveLength(1);
    expect(result.output).toBe('Refund issued.');
    expect(result.agent).toBe('billing');
    expect(result.handoffs).toEqual([{ from: 'triage', to: 'billing', callId: 't1' }]);
    const answer = result.messages.find((m) => m.toolCallId === 't1');
    expect(answer?.content).toBe('Transferred to billing. Continue as billing.');
    expect(systemOf(result.messages)).toBe('You handle billing.');
  });

  test('a run that does not hand off is answered by its own agent and has no handoffs', async () => {
    const billing = new Agent({ name: 'billing', model: new ScriptedModel([]) });
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([textResponse('Hello.')]),
      handoffs: [billing],
    });
    const result = await triage.run('hi');
    expect(result.agent).toBe('triage');
    expect(result.handoffs).toBeUndefined();
    expect(Object.keys(result)).not.toContain('agent');
  });

  test('other calls of the handing-off turn are answered without running', async () => {
    const lookup = counter('lookup');
    const billing = new Agent({
      name: 'billing',
      model: new ScriptedModel([textResponse('ok')]),
    });
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([
        toolCallResponse([
          { id: 'a', name: 'lookup' },
          { id: 'b', name: 'transfer_to_billing' },
        ]),
      ]),
      tools: [lookup.tool],
      handoffs: [billing],
    });
    const result = await triage.run('x');
    expect(lookup.calls).toHaveLength(0);
    expect(result.messages.find((m) => m.toolCallId === 'a')?.content).toBe(
      'Not run: the conversation was handed off to billing.',
    );
    expect(result.toolCalls).toBe(0);
  });

  test('the input filter decides what the target sees; the run keeps every message', async () => {
    const billingModel = new ScriptedModel([textResponse('Billing here.')]);
    const billing = new Agent({ name: 'billing', model: billingModel, instructions: 'B' });
    const seen: Message[][] = [];
    const lookup = counter('lookup');
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([
        toolCallResponse([{ id: 'l1', name: 'lookup' }]),
        toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }]),
      ]),
      tools: [lookup.tool],
      handoffs: [
        {
          agent: billing,
          inputFilter: ({ messages, from, to }) => {
            seen.push([...messages]);
            expect([from, to]).toEqual(['triage', 'billing']);
            return messages.filter((m) => m.role === 'user');
          },
        },
      ],
    });
    const result = await triage.run('refund please');
    expect(seen[0]?.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(billingModel.requests[0]?.messages).toEqual([
      { role: 'system', content: 'B' },
      { role: 'user', content: 'refund please' },
    ]);
    expect(result.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
    expect(result.compactions?.map((c) => [c.policy, c.from, c.to])).toEqual([['handoff', 0, 5]]);
  });

  test('an input filter that breaks call/result pairing fails the run at the loop stage', async () => {
    const billing = new Agent({ name: 'billing', model: new ScriptedModel([]) });
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }])]),
      handoffs: [
        {
          agent: billing,
          inputFilter: ({ messages }) => messages.filter((m) => m.role !== 'assistant'),
        },
      ],
    });
    const error = await rejection(triage.run('x'));
    expect(RunError.is(error) && error.stage).toBe('loop');
    expect(String((error as RunError).cause)).toMatch(/input filter of the handoff to billing/);
  });

  test('agents handing off back and forth stop at maxHandoffs with a loop-stage error', async () => {
    const pingModel = new ScriptedModel(
      Array.from({ length: 5 }, (_, i) =>
        toolCallResponse([{ id: `p${i}`, name: 'transfer_to_pong' }]),
      ),
    );
    const pongModel = new ScriptedModel(
      Array.from({ length: 5 }, (_, i) =>
        toolCallResponse([{ id: `q${i}`, name: 'transfer_to_ping' }]),
      ),
    );
    // eslint-disable-next-line prefer-const
    let ping: Agent;
    const pong: Agent = new Agent({
      name: 'pong',
      model: pongModel,
      handoffs: [{ agent: () => ping, name: 'ping' }],
    });
    ping = new Agent({ name: 'ping', model: pingModel, handoffs: [pong], maxHandoffs: 3 });
    const events: RunEvent[] = [];
    const error = await rejection(ping.run('go', { observer: (e) => events.push(e) }));
    expect(RunError.is(error) && error.stage).toBe('loop');
    expect(String((error as RunError).cause)).toMatch(/handoff limit exceeded.*3 times/);
    const path = events.flatMap((e) => (e.kind === 'handoff' ? [e.to] : []));
    expect(path).toEqual(['pong', 'ping', 'pong']);
    // The refused transfer call is answered: no unanswered call in the evidence.
    const partial = (error as RunError).partial?.messages ?? [];
    const calls = partial.flatMap((m) => m.toolCalls ?? []).map((c) => c.id);
    const answered = new Set(partial.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
    expect(calls.filter((id) => !answered.has(id))).toEqual([]);
  });

  test('a handoff is a run event naming both agents and the call', async () => {
    const billing = new Agent({ name: 'billing', model: new ScriptedModel([textResponse('ok')]) });
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }])]),
      handoffs: [billing],
    });
    const events: RunEvent[] = [];
    await triage.run('x', { observer: (e) => events.push(e) });
    const handoff = events.find((e) => e.kind === 'handoff');
    expect(handoff).toMatchObject({
      kind: 'handoff',
      from: 'triage',
      to: 'billing',
      turn: 0,
      callId: 't1',
      call: { name: 'transfer_to_billing' },
    });
    const kinds = events.map((e) => e.kind);
    expect(kinds.indexOf('handoff')).toBeLessThan(kinds.lastIndexOf('model_start'));
  });

  test('a stored run that failed after handing off continues in the target', async () => {
    const store = memoryStore();
    const refund = counter('refund');
    const billingModel = new ScriptedModel([
      new Error('provider down'),
      toolCallResponse([{ id: 'r1', name: 'refund' }]),
      textResponse('Refunded.'),
    ]);
    const billing = new Agent({
      name: 'billing',
      model: billingModel,
      instructions: 'Billing.',
      tools: [refund.tool],
    });
    const triageModel = new ScriptedModel([
      toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }]),
    ]);
    const triage = new Agent({ name: 'triage', model: triageModel, store, handoffs: [billing] });
    const error = await rejection(triage.run('refund', { runId: 'r-1' }));
    expect(RunError.is(error) && error.stage).toBe('model');

    const result = await triage.resumeRun('r-1');
    expect(triageModel.requests).toHaveLength(1);
    expect(systemOf(billingModel.requests[1]?.messages ?? [])).toBe('Billing.');
    expect(billingModel.requests[1]?.tools.map((t) => t.name)).toEqual(['refund']);
    expect(result.output).toBe('Refunded.');
    expect(result.agent).toBe('billing');
    expect(result.handoffs?.map((h) => h.to)).toEqual(['billing']);
    expect(refund.calls).toHaveLength(1);
  });

  test('a run paused in the target resumes there, from any process holding the store', async () => {
    const store = memoryStore();
    const refund = defineTool({
      name: 'refund',
      description: 'refund',
      schema: { type: 'object', properties: {}, additionalProperties: false },
      approval: true,
      execute: () => 'refunded',
    });
    const makeAgents = (billingOutcomes: ConstructorParameters<typeof ScriptedModel>[0]) => {
      const billing = new Agent({
        name: 'billing',
        model: new ScriptedModel(billingOutcomes),
        instructions: 'Billing.',
        tools: [refund],
        deferredTools: true,
      });
      return new Agent({
        name: 'triage',
        model: new ScriptedModel([toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }])]),
        store,
        deferredTools: true,
        handoffs: [billing],
      });
    };
    const first = makeAgents([toolCallResponse([{ id: 'r1', name: 'refund' }])]);
    const paused = await first.run('refund', { runId: 'p-1' });
    expect(paused.pending?.approvals.map((c) => c.toolName)).toEqual(['refund']);
    expect(paused.agent).toBe('billing');

    const later = makeAgents([textResponse('Done.')]);
    // Continuing a paused run returns it as it is, naming the agent it waits in.
    const still = await later.resumeRun('p-1');
    expect(still.pending?.approvals.map((c) => c.toolName)).toEqual(['refund']);
    expect(still.agent).toBe('billing');
    expect(still.handoffs?.map((h) => h.to)).toEqual(['billing']);
    const held = await later.resumeRun(
      JSON.parse(JSON.stringify(paused.state)) as typeof paused.state,
    );
    expect(held.agent).toBe('billing');
    const result = await later.resume('p-1', { approvals: { r1: { approved: true } } });
    expect(result.output).toBe('Done.');
    expect(result.agent).toBe('billing');
    expect(systemOf(result.messages)).toBe('Billing.');
  });

  test('a later run on the same conversation starts at the agent called, not where the last ended', async () => {
    const store = memoryStore();
    const billing = new Agent({
      name: 'billing',
      model: new ScriptedModel([textResponse('Billing answer.')]),
      instructions: 'Billing.',
    });
    const triageModel = new ScriptedModel([
      toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }]),
      textResponse('Triage again.'),
    ]);
    const triage = new Agent({
      name: 'triage',
      model: triageModel,
      instructions: 'Triage.',
      store,
      handoffs: [billing],
    });
    await triage.run('first', { conversation: 'c-1' });
    const second = await triage.run('second', { conversation: 'c-1' });
    expect(second.agent).toBe('triage');
    expect(systemOf(triageModel.requests[1]?.messages ?? [])).toBe('Triage.');
  });

  test('a streaming run streams both agents, and a target that cannot stream fails clearly', async () => {
    const billing = new Agent({
      name: 'billing',
      model: new ScriptedModel([textResponse('From billing.')]),
    });
    const triage = new Agent({
      name: 'triage',
      model: new ScriptedModel([toolCallResponse([{ id: 't1', name: 'transfer_to_billing' }])]),
      handoffs: [billing],
    });
    const stream = triage.runStream('x');
    let text = '';
    for await (const piece of stream.textStream) text += piece;
    const result = await stream.result;
    expect(text).toBe('From billing.');
    expect(result.agent).toBe('billing');

    const plain = new Agent({
      name: 'plain',
      model: { name: 'plain', generate: () => Promise.resolve(textResponse('no')) },
    });
    const streaming = new Agent({
      name: 'front',
      model: new ScriptedModel([toolCallResponse([{ id: 't1', name: 'transfer_to_plain' }])]),
      handoffs: [plain],
    });
    const error = await rejection(streaming.runStream('x').result);
    expect(RunError.is(error) && error.stage).toBe('loop');
    expect(String((error as RunError).cause)).toMatch(/cannot take over a streaming run/);
  });

  test('declaration mistakes are ConfigErrors naming the fix', () => {
    const billing = new Agent({ name: 'billing', model: new ScriptedModel([]) });
    const model = new ScriptedModel([]);
    const tool = counter('transfer_to_billing').tool;
    expect(() => new Agent({ model, tools: [tool], handoffs: [billing] })).toThrow(
      /collides with another tool or handoff/,
    );
    expect(() => new Agent({ model, handoffs: [billing, billing] })).toThrow(ConfigError);
    expect(() => new Agent({ model, handoffs: [{ agent: () => billing }] as never })).toThrow(
      /needs `name`/,
    );
    expect(() => new Agent({ model, handoffs: [{ name: 'x' }] as never })).toThrow(
      /not a golem Agent/,
    );
    expect(() => new Agent({ model, handoffs: [billing], maxHandoffs: -1 })).toThrow(/maxHandoffs/);
    expect(() => new Agent({ model, handoffs: [{ agent: billing, name: 'has space' }] })).toThrow(
      /letters, digits/,
    );
  });
});
