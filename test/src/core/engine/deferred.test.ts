import {
  Agent,
  CancelledError,
  ModelRetry,
  RunError,
  RunInputError,
  ToolError,
  UsageLimitError,
  deferExternal,
  defineTool,
  errorChain,
  isCancellation,
  requireApproval,
  type Message,
  type RunEvent,
  type UsageLimit,
} from 'golem';
import { INTERRUPTED_RESULT } from '../../../../src/core/engine/repair';
import { ScriptedModel, textResponse, toolCallResponse, type ScriptedOutcome } from 'golem/testing';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** Tools for one test: `a` answers, `transfer` needs approval, `fetch_report` is external. */
function fixture(
  script: ScriptedOutcome[],
  options: { usageLimit?: UsageLimit; toolRetries?: number } = {},
) {
  const approvedFlags: boolean[] = [];
  const events: RunEvent[] = [];
  let reports = 0;
  const a = defineTool({ name: 'a', schema: { type: 'object' }, execute: () => 'a done' });
  const transfer = defineTool({
    name: 'transfer',
    schema: { type: 'object', properties: { amount: { type: 'number' } } },
    execute: (_args, ctx) => {
      if (!ctx.approved) throw requireApproval('needs sign-off');
      approvedFlags.push(ctx.approved);
      return 'transferred';
    },
  });
  const report = defineTool({
    name: 'fetch_report',
    schema: { type: 'object' },
    execute: () => {
      reports++;
      throw deferExternal('produced by the batch job');
    },
  });
  const model = new ScriptedModel(script);
  const agent = new Agent({
    deferredTools: true,
    model,
    tools: [a, transfer, report],
    onEvent: (e) => events.push(e),
    ...options,
  });
  return { agent, model, events, approvedFlags, reports: () => reports };
}

const batchAB = () =>
  toolCallResponse([
    { id: 'a1', name: 'a' },
    { id: 'b1', name: 'transfer', args: { amount: 5 } },
  ]);

describe('deferred tools: pausing (spec §21.1)', () => {
  test('DF-1 batch [a ok, b defers approval]: success with pending.approvals, zero output, evidence ends with a', async () => {
    const { agent, model, events } = fixture([batchAB()]);

    const result = await agent.run('pay');

    expect(result.pending).toEqual({
      approvals: [
        { callId: 'b1', toolName: 'transfer', args: '{"amount":5}', reason: 'needs sign-off' },
      ],
      external: [],
    });
    expect(result.output).toBeUndefined();
    expect(result.messages).toEqual([
      { role: 'user', content: 'pay' },
      batchAB().message,
      { role: 'tool', content: 'a done', toolCallId: 'a1', toolName: 'a' },
    ]);
    expect(model.calls).toBe(1);
    expect(result.toolCalls).toBe(1);
    expect(events.flatMap((e) => ('callId' in e ? [`${e.kind} ${e.callId ?? ''}`] : []))).toEqual([
      'tool_start a1',
      'tool_end a1',
      'tool_start b1',
      'deferred b1',
    ]);
  });

  test('DF-2 an external deferral is grouped under `external`', async () => {
    const { agent } = fixture([
      toolCallResponse([{ id: 'r1', name: 'fetch_report', args: { week: 3 } }]),
    ]);

    const result = await agent.run('report');

    expect(result.pending).toEqual({
      approvals: [],
      external: [
        {
          callId: 'r1',
          toolName: 'fetch_report',
          args: '{"week":3}',
          reason: 'produced by the batch job',
        },
      ],
    });
  });

  test('pending calls keep emission order within each group', async () => {
    const { agent } = fixture([
      toolCallResponse([
        { id: 'x1', name: 'transfer' },
        { id: 'e1', name: 'fetch_report' },
        { id: 'x2', name: 'transfer' },
      ]),
    ]);

    const result = await agent.run('go');

    expect(result.pending?.approvals.map((p) => p.callId)).toEqual(['x1', 'x2']);
    expect(result.pending?.external.map((p) => p.callId)).toEqual(['e1']);
  });

  test('`approval: true` on defineTool pauses without executing the tool', async () => {
    let executions = 0;
    const wipe = defineTool({
      name: 'wipe',
      schema: { type: 'object' },
      approval: true,
      execute: () => {
        executions++;
        return 'wiped';
      },
    });
    const agent = new Agent({
      deferredTools: true,
      model: new ScriptedModel([toolCallResponse([{ id: 'w1', name: 'wipe' }])]),
      tools: [wipe],
    });

    const result = await agent.run('wipe it');

    expect(result.pending?.approvals).toEqual([
      { callId: 'w1', toolName: 'wipe', args: '{}', reason: '' },
    ]);
    expect(executions).toBe(0);
  });

  test('an approval function decides per call from the parsed args', async () => {
    const seen: unknown[] = [];
    const pay = defineTool({
      name: 'pay',
      schema: { type: 'object' },
      approval: (args) => {
        seen.push(args);
        return (args as { amount: number }).amount > 100;
      },
      execute: (args) => `paid ${(args as { amount: number }).amount}`,
    });
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'p1', name: 'pay', args: { amount: 5 } },
        { id: 'p2', name: 'pay', args: { amount: 500 } },
      ]),
    ]);
    const agent = new Agent({ deferredTools: true, model, tools: [pay] });

    const result = await agent.run('pay both');

    expect(seen).toEqual([{ amount: 5 }, { amount: 500 }]);
    expect(result.messages.at(-1)).toEqual({
      role: 'tool',
      content: 'paid 5',
      toolCallId: 'p1',
      toolName: 'pay',
    });
    expect(result.pending?.approvals.map((p) => p.callId)).toEqual(['p2']);
  });
});

describe('deferred tools: resuming (spec §21.2)', () => {
  test('DF-3 approving b re-runs it with ctx.approved true; its result follows a in emission order; the answer is decoded', async () => {
    const { agent, model, approvedFlags } = fixture([batchAB(), textResponse('sent')]);
    const paused = await agent.run('pay');

    const resumed = await agent.resume(paused.messages, { approvals: { b1: { approved: true } } });

    const expected: Message[] = [
      ...paused.messages,
      { role: 'tool', content: 'transferred', toolCallId: 'b1', toolName: 'transfer' },
    ];
    expect(approvedFlags).toEqual([true]);
    expect(model.lastRequest?.messages).toEqual(expected);
    expect(resumed.output).toBe('sent');
    expect(resumed.pending).toBeUndefined();
    expect(resumed.messages).toEqual([...expected, { role: 'assistant', content: 'sent' }]);
  });

  test('resolutions are spliced in emission order even when the deferred call came first', async () => {
    const { agent, model } = fixture([
      toolCallResponse([
        { id: 'b1', name: 'transfer' },
        { id: 'a1', name: 'a' },
      ]),
      textResponse('ok'),
    ]);
    const paused = await agent.run('pay');

    await agent.resume(paused.messages, { approvals: new Map([['b1', { approved: true }]]) });

    expect(model.lastRequest?.messages.slice(2)).toEqual([
      { role: 'tool', content: 'transferred', toolCallId: 'b1', toolName: 'transfer' },
      { role: 'tool', content: 'a done', toolCallId: 'a1', toolName: 'a' },
    ]);
  });

  test('the approved re-run emits tool_start and tool_end', async () => {
    const { agent, events } = fixture([batchAB(), textResponse('sent')]);
    const paused = await agent.run('pay');
    events.length = 0;

    await agent.resume(paused.messages, { approvals: { b1: { approved: true } } });

    expect(events.slice(0, 2)).toEqual([
      {
        kind: 'tool_start',
        turn: 0,
        callId: 'b1',
        toolName: 'transfer',
        args: '{"amount":5}',
      },
      {
        kind: 'tool_end',
        turn: 0,
        callId: 'b1',
        toolName: 'transfer',
        args: '{"amount":5}',
        result: 'transferred',
      },
    ]);
  });

  test('DF-2 an external result is used verbatim and the tool is not executed again', async () => {
    const { agent, model, reports } = fixture([
      toolCallResponse([{ id: 'r1', name: 'fetch_report' }]),
      textResponse('summarised'),
    ]);
    const paused = await agent.run('report');

    const resumed = await agent.resume(paused.messages, {
      external: { r1: '  raw {report} text\n' },
    });

    expect(reports()).toBe(1);
    expect(model.lastRequest?.messages.at(-1)).toEqual({
      role: 'tool',
      content: '  raw {report} text\n',
      toolCallId: 'r1',
      toolName: 'fetch_report',
    });
    expect(resumed.output).toBe('summarised');
  });

  test('DF-4 denying with a reason feeds the denial text and does not execute the tool', async () => {
    const { agent, model, approvedFlags } = fixture([batchAB(), textResponse('understood')]);
    const paused = await agent.run('pay');

    await agent.resume(paused.messages, {
      approvals: { b1: { approved: false, reason: 'over budget' } },
    });

    expect(approvedFlags).toEqual([]);
    expect(model.lastRequest?.messages.at(-1)).toEqual({
      role: 'tool',
      content:
        'Your tool call was denied: over budget. Do not call it again; continue without its result.',
      toolCallId: 'b1',
      toolName: 'transfer',
    });
  });

  test('DF-4 denying without a reason uses the reasonless denial text', async () => {
    const { agent, model } = fixture([batchAB(), textResponse('understood')]);
    const paused = await agent.run('pay');

    await agent.resume(paused.messages, { approvals: { b1: { approved: false } } });

    expect(model.lastRequest?.messages.at(-1)?.content).toBe(
      'Your tool call was denied. Do not call it again; continue without its result.',
    );
  });

  describe('DF-5 validation before any model call', () => {
    const pausedHistory: Message[] = [
      { role: 'user', content: 'pay' },
      batchAB().message,
      { role: 'tool', content: 'a done', toolCallId: 'a1', toolName: 'a' },
    ];

    test.each<[string, Message[], Parameters<Agent['resume']>[1], string]>([
      [
        'missing resolution',
        pausedHistory,
        {},
        'resume: pending call "b1" (transfer) has no resolution',
      ],
      [
        'unknown approval id',
        pausedHistory,
        { approvals: { b1: { approved: true }, zz: { approved: true } } },
        'resume: approval for unknown call "zz"',
      ],
      [
        'unknown external id',
        pausedHistory,
        { approvals: { b1: { approved: true } }, external: { zz: 'x' } },
        'resume: external result for unknown call "zz"',
      ],
      [
        'id in both maps',
        pausedHistory,
        { approvals: { b1: { approved: true } }, external: { b1: 'x' } },
        'resume: call "b1" is resolved both as an approval and as an external result',
      ],
      [
        'history without pending calls',
        [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
        ],
        {},
        'resume: the history has no pending tool calls to resolve',
      ],
      [
        'pending call without id',
        [
          { role: 'user', content: 'q' },
          { role: 'assistant', toolCalls: [{ id: '', name: 'transfer', args: '{}' }] },
        ],
        {},
        'resume: pending call to "transfer" has no id and cannot be resolved',
      ],
    ])('DF-5 %s', async (_name, history, results, message) => {
      const { agent, model, approvedFlags } = fixture([textResponse('never')]);

      const error = await rejection(agent.resume(history, results));

      expect(RunInputError.is(error)).toBe(true);
      expect(RunError.is(error)).toBe(false);
      expect((error as Error).message).toBe(message);
      expect(model.calls).toBe(0);
      expect(approvedFlags).toEqual([]);
    });

    test('DF-5 approving a call to a tool the agent does not register is rejected', async () => {
      const { agent, model } = fixture([textResponse('never')]);
      const history: Message[] = [
        { role: 'user', content: 'q' },
        { role: 'assistant', toolCalls: [{ id: 'g1', name: 'ghost', args: '{}' }] },
      ];

      const error = await rejection(
        agent.resume(history, { approvals: { g1: { approved: true } } }),
      );

      expect(RunInputError.is(error)).toBe(true);
      expect((error as Error).message).toContain('"ghost"');
      expect(model.calls).toBe(0);
    });
  });

  test('DF-6 an approved re-run that fails fails the run at `tool`, with no model call', async () => {
    const boom = new Error('bank offline');
    const flaky = defineTool({
      name: 'transfer',
      schema: { type: 'object' },
      execute: (_args, ctx) => {
        if (!ctx.approved) throw requireApproval();
        throw boom;
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'b1', name: 'transfer' }]),
      textResponse('never'),
    ]);
    const agent = new Agent({ deferredTools: true, model, tools: [flaky], toolRetries: 3 });
    const paused = await agent.run('pay');

    const error = await rejection(
      agent.resume(paused.messages, { approvals: { b1: { approved: true } } }),
    );

    expect((error as RunError).stage).toBe('tool');
    expect(ToolError.is((error as RunError).cause)).toBe(true);
    expect([...errorChain(error)]).toContain(boom);
    expect(model.calls).toBe(1);
  });

  test('DF-6 an approved re-run rejecting with ModelRetry gets no correction budget: `tool` stage', async () => {
    const picky = defineTool({
      name: 'transfer',
      schema: { type: 'object' },
      execute: (_args, ctx) => {
        if (!ctx.approved) throw requireApproval();
        throw new ModelRetry('amount missing');
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'b1', name: 'transfer' }]),
      textResponse('never'),
    ]);
    const agent = new Agent({ deferredTools: true, model, tools: [picky], toolRetries: 3 });
    const paused = await agent.run('pay');

    const error = await rejection(
      agent.resume(paused.messages, { approvals: { b1: { approved: true } } }),
    );

    expect((error as RunError).stage).toBe('tool');
    expect(model.calls).toBe(1);
  });

  test('DF-6 an approved re-run that defers again fails the run at `tool`', async () => {
    const stubborn = defineTool({
      name: 'transfer',
      schema: { type: 'object' },
      execute: () => {
        throw requireApproval('always');
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'b1', name: 'transfer' }]),
      textResponse('never'),
    ]);
    const agent = new Agent({ deferredTools: true, model, tools: [stubborn] });
    const paused = await agent.run('pay');

    const error = await rejection(
      agent.resume(paused.messages, { approvals: { b1: { approved: true } } }),
    );

    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('tool');
    expect(model.calls).toBe(1);
  });

  test('cancellation during the approved re-run is reported as cancellation', async () => {
    const controller = new AbortController();
    const aborting = defineTool({
      name: 'transfer',
      schema: { type: 'object' },
      execute: (_args, ctx) => {
        if (!ctx.approved) throw requireApproval();
        controller.abort();
        throw new Error('interrupted');
      },
    });
    const model = new ScriptedModel([toolCallResponse([{ id: 'b1', name: 'transfer' }])]);
    const agent = new Agent({ deferredTools: true, model, tools: [aborting] });
    const paused = await agent.run('pay');

    const error = await rejection(
      agent.resume(
        paused.messages,
        { approvals: { b1: { approved: true } } },
        { signal: controller.signal },
      ),
    );

    expect(isCancellation(error)).toBe(true);
    expect([...errorChain(error)].some((e) => CancelledError.is(e))).toBe(true);
  });

  test('DF-7 an empty prompt appends no user message', async () => {
    const { agent, model } = fixture([batchAB(), textResponse('sent')]);
    const paused = await agent.run('pay');

    await agent.resume(paused.messages, { approvals: { b1: { approved: true } } }, { prompt: '' });

    expect(model.lastRequest?.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
    ]);
  });

  test('DF-7 a non-empty prompt is appended after the resolutions', async () => {
    const { agent, model } = fixture([batchAB(), textResponse('sent')]);
    const paused = await agent.run('pay');

    await agent.resume(
      paused.messages,
      { approvals: { b1: { approved: true } } },
      { prompt: 'and confirm by email' },
    );

    expect(model.lastRequest?.messages.slice(3)).toEqual([
      { role: 'tool', content: 'transferred', toolCallId: 'b1', toolName: 'transfer' },
      { role: 'user', content: 'and confirm by email' },
    ]);
  });

  test('a resumed run may pause again', async () => {
    const { agent } = fixture([
      batchAB(),
      toolCallResponse([{ id: 'b2', name: 'transfer', args: { amount: 7 } }]),
    ]);
    const paused = await agent.run('pay');

    const again = await agent.resume(paused.messages, { approvals: { b1: { approved: true } } });

    expect(again.pending).toEqual({
      approvals: [
        { callId: 'b2', toolName: 'transfer', args: '{"amount":7}', reason: 'needs sign-off' },
      ],
      external: [],
    });
    expect(again.output).toBeUndefined();
  });

  test('DF-8 toolCalls bound 1: the deferring pass does not consume it', async () => {
    const { agent } = fixture([batchAB()], { usageLimit: { toolCalls: 1 } });

    const paused = await agent.run('pay');

    expect(paused.toolCalls).toBe(1);
    expect(paused.pending?.approvals.map((p) => p.callId)).toEqual(['b1']);
  });

  test('DF-8 toolCalls bound 1: the approved re-run consumes it', async () => {
    const { agent } = fixture(
      [
        toolCallResponse([{ id: 'b1', name: 'transfer' }]),
        toolCallResponse([{ id: 'a2', name: 'a' }]),
        textResponse('never'),
      ],
      { usageLimit: { toolCalls: 1 } },
    );
    const paused = await agent.run('pay');
    expect(paused.toolCalls).toBe(0);

    const error = await rejection(
      agent.resume(paused.messages, { approvals: { b1: { approved: true } } }),
    );

    expect((error as RunError).stage).toBe('usage');
    expect(UsageLimitError.is((error as RunError).cause)).toBe(true);
    expect(((error as RunError).cause as Error).message).toBe(
      'run exceeded the tool call limit of 1 (used 2)',
    );
  });

  test('feeding paused history to a plain run synthesizes an interrupted result instead', async () => {
    const { agent, model, approvedFlags } = fixture([batchAB(), textResponse('ok')]);
    const paused = await agent.run('pay');

    await agent.run('continue', { history: paused.messages });

    expect(approvedFlags).toEqual([]);
    expect(model.lastRequest?.messages.slice(2)).toEqual([
      { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'b1', toolName: 'transfer' },
      { role: 'tool', content: 'a done', toolCallId: 'a1', toolName: 'a' },
      { role: 'user', content: 'continue' },
    ]);
  });
});
