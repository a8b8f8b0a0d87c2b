import {
  Agent,
  ModelHTTPError,
  ModelRetry,
  RunError,
  defineTool,
  errorChain,
  type ModelResponse,
  type RunEvent,
  type RunObserver,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { brief, eventOf } from '../../../support/run-events';

// Spec §16 (run events and observers) with decision D8: observer exceptions are swallowed.

async function runFailure(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail with a RunError');
}

const answer = defineTool({
  name: 'answer',
  description: 'the answer',
  schema: { type: 'object', properties: { q: { type: 'string' } } },
  execute: () => '42',
});

function toolExchange(): ScriptedModel {
  return new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'answer', args: '{"q":"life"}' }], {
      inputTokens: 3,
      outputTokens: 1,
    }),
    textResponse('It is 42.', { inputTokens: 5, outputTokens: 2 }),
  ]);
}

describe('run events (spec §16)', () => {
  test('EV-1 a two-turn tool exchange emits model and tool events with their exact fields', async () => {
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: toolExchange(),
      tools: [answer],
      onEvent: (e) => events.push(e),
    });

    await agent.run('go');

    expect(events).toEqual([
      {
        kind: 'model_start',
        turn: 0,
        attempt: 1,
        model: 'scripted',
        request: expect.any(Object) as unknown,
        contextTokens: 5, // the prompt (or anchor + result) estimated
      },
      {
        kind: 'model_end',
        turn: 0,
        attempt: 1,
        usage: { inputTokens: 3, outputTokens: 1 },
        model: 'scripted',
        message: {
          role: 'assistant',
          toolCalls: [{ id: 'c1', name: 'answer', args: '{"q":"life"}' }],
        },
        finishReason: 'tool_calls',
      },
      {
        kind: 'tool_start',
        turn: 0,
        callId: 'c1',
        toolName: 'answer',
        args: '{"q":"life"}',
      },
      {
        kind: 'tool_end',
        turn: 0,
        callId: 'c1',
        toolName: 'answer',
        args: '{"q":"life"}',
        result: '42',
      },
      {
        kind: 'model_start',
        turn: 1,
        attempt: 1,
        model: 'scripted',
        request: expect.any(Object) as unknown,
        contextTokens: 9, // the prompt (or anchor + result) estimated
      },
      {
        kind: 'model_end',
        turn: 1,
        attempt: 1,
        usage: { inputTokens: 5, outputTokens: 2 },
        model: 'scripted',
        message: { role: 'assistant', content: 'It is 42.' },
        finishReason: 'stop',
      },
    ]);
    expect(eventOf(events[0], 'model_start').request.messages.at(-1)).toEqual({
      role: 'user',
      content: 'go',
    });
    expect(eventOf(events[3], 'tool_end').error).toBeUndefined();
  });

  test('EV-2 a retried attempt emits a model_start/model_end pair per attempt; the failed one carries the error', async () => {
    const events: RunEvent[] = [];
    const sentinel = new ModelHTTPError({ status: 503, provider: 'test' });
    const model = new ScriptedModel([
      sentinel,
      textResponse('ok', { inputTokens: 1, outputTokens: 1 }),
    ]);
    const agent = new Agent({
      model,
      maxAttempts: 2,
      retryBackoff: () => 0,
      sleep: () => Promise.resolve(),
      onEvent: (e) => events.push(e),
    });

    await agent.run('go');

    expect(events.map(brief)).toEqual([
      'model_start t0 a1',
      'model_end t0 a1',
      'model_start t0 a2',
      'model_end t0 a2',
    ]);
    const failed = eventOf(events[1], 'model_end');
    expect([...errorChain(failed.error)]).toContain(sentinel);
    expect(failed.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect('message' in failed).toBe(false);
    const answered = eventOf(events[3], 'model_end');
    expect('error' in answered).toBe(false);
    expect(answered.usage).toEqual({ inputTokens: 1, outputTokens: 1 });
  });

  test('EV-3 a tool rejection under budget is reported by tool_end carrying the ModelRetry', async () => {
    const events: RunEvent[] = [];
    const rejection = new ModelRetry('n must be positive, got 0');
    const roll = defineTool({
      name: 'roll',
      schema: { type: 'object' },
      execute: (args) => {
        if ((args as { n: number }).n <= 0) throw rejection;
        return '4';
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'roll', args: { n: 0 } }]),
      toolCallResponse([{ id: 'call-2', name: 'roll', args: { n: 4 } }]),
      textResponse('rolled'),
    ]);
    const agent = new Agent({
      model,
      tools: [roll],
      toolRetries: 1,
      onEvent: (e) => events.push(e),
    });

    await agent.run('go');

    const ends = events.filter((e) => e.kind === 'tool_end');
    expect(ends.map((e) => e.callId)).toEqual(['call-1', 'call-2']);
    expect(ends[0]?.error).toBe(rejection);
    expect(ends[0]?.result).toBeUndefined();
    expect(ends[1]).toEqual({
      kind: 'tool_end',
      turn: 1,
      callId: 'call-2',
      toolName: 'roll',
      args: '{"n":4}',
      result: '4',
    });
  });

  test('EV-4 a concurrent group orders its events: all tool_start, then all tool_end, in emission order', async () => {
    const events: RunEvent[] = [];
    const make = (name: string) =>
      defineTool({ name, schema: { type: 'object' }, execute: () => `${name} done` });
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'left' },
        { id: 'c2', name: 'right' },
      ]),
      textResponse('ok'),
    ]);
    const agent = new Agent({
      model,
      tools: [make('left'), make('right')],
      parallelToolCalls: true,
      onEvent: (e) => events.push(e),
    });

    await agent.run('go');

    expect(events.map(brief)).toEqual([
      'model_start t0 a1',
      'model_end t0 a1',
      'tool_start t0 c1',
      'tool_start t0 c2',
      'tool_end t0 c1',
      'tool_end t0 c2',
      'model_start t1 a1',
      'model_end t1 a1',
    ]);
    expect(eventOf(events[4], 'tool_end').result).toBe('left done');
    expect(eventOf(events[5], 'tool_end').result).toBe('right done');
  });

  test('EV-5 an output correction emits output_rejected (round 1, the ModelRetry) and restarts turns at 0', async () => {
    const events: RunEvent[] = [];
    const rejection = new ModelRetry('say a number');
    let decoded = 0;
    const decoder = (response: ModelResponse): string => {
      decoded += 1;
      if (decoded === 1) throw rejection;
      return response.message.content ?? '';
    };
    const model = new ScriptedModel([textResponse('almost'), textResponse('7')]);
    const agent = new Agent({
      model,
      output: decoder,
      outputRetries: 1,
      onEvent: (e) => events.push(e),
    });

    await agent.run('go');

    expect(events.map(brief)).toEqual([
      'model_start t0 a1',
      'model_end t0 a1',
      'output_rejected a1',
      'model_start t0 a1',
      'model_end t0 a1',
    ]);
    expect(events[2]).toEqual({ kind: 'output_rejected', attempt: 1, error: rejection });
    expect((eventOf(events[2], 'output_rejected').error as ModelRetry).reason).toBe('say a number');
  });

  test('EV-6 a streaming run emits model_start t0 a1 and model_end t0 a1 with usage 1/1', async () => {
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: new ScriptedModel([textResponse('streamed', { inputTokens: 1, outputTokens: 1 })]),
      onEvent: (e) => events.push(e),
    });

    const stream = agent.runStream('go');
    const contents: string[] = [];
    for await (const delta of stream) if (delta.content !== undefined) contents.push(delta.content);
    const result = await stream.result;

    expect(result.output).toBe('streamed');
    expect(contents).toEqual(['streamed']);
    expect(events).toEqual([
      {
        kind: 'model_start',
        turn: 0,
        attempt: 1,
        model: 'scripted',
        request: expect.any(Object) as unknown,
        contextTokens: 5, // the prompt (or anchor + result) estimated
      },
      {
        kind: 'model_end',
        turn: 0,
        attempt: 1,
        usage: { inputTokens: 1, outputTokens: 1 },
        model: 'scripted',
        message: { role: 'assistant', content: 'streamed' },
        finishReason: 'stop',
      },
    ]);
  });
});

describe('observers (spec §16)', () => {
  test('EV-7 the agent observer and the run observer both receive every event, the agent observer first', async () => {
    const log: string[] = [];
    const seen = new Map<string, RunEvent[]>([
      ['agent', []],
      ['run', []],
    ]);
    const record =
      (who: string): RunObserver =>
      (e) => {
        log.push(`${who} ${e.kind}`);
        seen.get(who)?.push(e);
      };
    const agent = new Agent({ model: toolExchange(), tools: [answer], onEvent: record('agent') });

    await agent.run('go', { observer: record('run') });

    const kinds = [
      'model_start',
      'model_end',
      'tool_start',
      'tool_end',
      'model_start',
      'model_end',
    ];
    expect(log).toEqual(kinds.flatMap((k) => [`agent ${k}`, `run ${k}`]));
    expect(seen.get('run')).toEqual(seen.get('agent'));
  });

  test('EV-7 a run observer sees only its own run', async () => {
    const first: RunEvent[] = [];
    const agent = new Agent({
      model: new ScriptedModel([textResponse('one'), textResponse('two')]),
    });

    await agent.run('first', { observer: (e) => first.push(e) });
    await agent.run('second');

    expect(first.map(brief)).toEqual(['model_start t0 a1', 'model_end t0 a1']);
  });

  test('EV-7 the run observer is honoured by streaming runs and by the deferred resume', async () => {
    const streamed: string[] = [];
    const resumed: string[] = [];
    const gated = defineTool({
      name: 'gated',
      schema: { type: 'object' },
      approval: true,
      execute: () => 'approved result',
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'gated' }]),
      textResponse('finished'),
    ]);
    const agent = new Agent({ deferredTools: true, model, tools: [gated] });

    const stream = agent.runStream('go', { observer: (e) => streamed.push(brief(e)) });
    const paused = await stream.result;
    const done = await agent.resume(
      paused.messages,
      { approvals: { 'call-1': { approved: true } } },
      { observer: (e) => resumed.push(brief(e)) },
    );

    expect(streamed).toEqual([
      'model_start t0 a1',
      'model_end t0 a1',
      'tool_start t0 call-1',
      'deferred t0 call-1',
    ]);
    expect(resumed).toEqual([
      'tool_start t0 call-1',
      'tool_end t0 call-1',
      'model_start t0 a1',
      'model_end t0 a1',
    ]);
    expect(done.output).toBe('finished');
  });

  test('EV-8 a deferred call emits deferred (with turn, callId, toolName, args) and no tool_end', async () => {
    const events: RunEvent[] = [];
    const gated = defineTool({
      name: 'gated',
      schema: { type: 'object' },
      approval: true,
      execute: () => 'never now',
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'gated', args: { x: 1 } }]),
    ]);
    const agent = new Agent({
      deferredTools: true,
      model,
      tools: [gated],
      onEvent: (e) => events.push(e),
    });

    const result = await agent.run('go');

    expect(result.pending?.approvals.map((p) => p.callId)).toEqual(['call-1']);
    expect(events.map((e) => e.kind)).toEqual([
      'model_start',
      'model_end',
      'tool_start',
      'deferred',
    ]);
    expect(events[3]).toEqual({
      kind: 'deferred',
      turn: 0,
      callId: 'call-1',
      toolName: 'gated',
      args: '{"x":1}',
    });
  });

  test('EV-9 throwing observers do not change a successful run, and later observers still see every event', async () => {
    const reference = await new Agent({ model: toolExchange(), tools: [answer] }).run('go');
    const seen: string[] = [];
    const throwing = (): void => {
      throw new Error('observer bug');
    };
    const agent = new Agent({ model: toolExchange(), tools: [answer], onEvent: throwing });

    const result = await agent.run('go', {
      observer: (e) => {
        seen.push(e.kind);
        throw new Error('run observer bug');
      },
    });

    expect(result).toEqual(reference);
    expect(seen).toEqual([
      'model_start',
      'model_end',
      'tool_start',
      'tool_end',
      'model_start',
      'model_end',
    ]);
  });

  test('EV-9 throwing observers do not change a failing run: same stage, same cause', async () => {
    const cause = new Error('tool broke');
    const broken = defineTool({
      name: 'broken',
      schema: { type: 'object' },
      execute: () => {
        throw cause;
      },
    });
    const model = new ScriptedModel([toolCallResponse([{ id: 'call-1', name: 'broken' }])]);
    const agent = new Agent({
      model,
      tools: [broken],
      onEvent: () => {
        throw new Error('observer bug');
      },
    });

    const error = await runFailure(
      agent.run('go', {
        observer: () => {
          throw new Error('run observer bug');
        },
      }),
    );

    expect(error.stage).toBe('tool');
    expect([...errorChain(error)]).toContain(cause);
    expect(
      [...errorChain(error)].some((e) => e instanceof Error && e.message.includes('observer bug')),
    ).toBe(false);
    expect(error.partial?.toolCalls).toBe(1);
  });
});
