/**
 * Typed run stream events (`runStream(...).events`): turn boundaries, tool calls with id and name
 * on every event (ids equal to the committed messages'), tool outcomes, corrections, discarded
 * attempts, deferral, and the final `finish` / `error` event.
 */
import {
  Agent,
  FallbackModel,
  ModelHTTPError,
  ModelRetry,
  RunError,
  RunInputError,
  defineTool,
  type Message,
  type OutputDecoder,
  type RunStreamEvent,
} from 'golem';
import { ScriptedModel, StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';

const roll = defineTool({
  name: 'roll',
  schema: { type: 'object', properties: { sides: { type: 'integer' } } },
  execute: () => '4',
});

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: unknown) => error,
  );
}

/** One line per event, with the fields that matter for the sequence. */
function summary(events: readonly RunStreamEvent[]): string[] {
  return events.map((e) => {
    switch (e.type) {
      case 'turn-start':
      case 'turn-discarded':
        return `${e.type} t${e.turn} a${e.attempt}`;
      case 'turn-end':
        return `turn-end t${e.turn} a${e.attempt}`;
      case 'text-delta':
      case 'thinking-delta':
        return `${e.type} t${e.turn} ${e.text}`;
      case 'tool-call-start':
        return `tool-call-start t${e.turn} ${e.callId} ${e.toolName}`;
      case 'tool-call-delta':
        return `tool-call-delta t${e.turn} ${e.callId} ${e.toolName} ${e.argsDelta}`;
      case 'tool-call-end':
        return `tool-call-end t${e.turn} ${e.callId} ${e.toolName} ${e.args}`;
      case 'tool-result':
        return `tool-result t${e.turn} ${e.callId} ${e.toolName} ${e.result}`;
      case 'tool-error':
        return `tool-error t${e.turn} ${e.callId} ${e.toolName}`;
      case 'correction':
        return `correction round ${e.round}`;
      case 'handoff':
        return `handoff t${e.turn} ${e.from}>${e.to}`;
      case 'deferred':
        return `deferred ${e.pending.approvals.map((p) => p.callId).join(',')}`;
      case 'finish':
        return 'finish';
      case 'error':
        return `error ${e.error.stage}`;
    }
  });
}

/** Turn 0: text and a streamed `roll` call (id on the first fragment only); turn 1: text. */
function rollingModel(id: string | undefined): StreamFunctionModel {
  return new StreamFunctionModel(async (request, emit) => {
    if (!request.messages.some((m) => m.role === 'tool')) {
      await emit({ content: 'Let me roll.' });
      await emit({
        toolCalls: [{ index: 0, ...(id === undefined ? {} : { id }), name: 'roll' }],
      });
      await emit({ toolCalls: [{ index: 0, argsFragment: '{"sides"' }] });
      await emit({ toolCalls: [{ index: 0, argsFragment: ':6}' }] });
      const response = toolCallResponse([{ id: id ?? '', name: 'roll', args: '{"sides":6}' }]);
      response.message.content = 'Let me roll.';
      return response;
    }
    await emit({ content: 'You rolled ' });
    await emit({ content: 'a 4.' });
    return textResponse('You rolled a 4.');
  });
}

function callIds(messages: readonly Message[]): string[] {
  return messages.flatMap((m) => [
    ...(m.toolCalls ?? []).map((c) => c.id),
    ...(m.toolCallId === undefined ? [] : [m.toolCallId]),
  ]);
}

describe('typed stream events', () => {
  test('two turns around a tool call: boundaries, id and name on every tool event, ids match the messages', async () => {
    const stream = new Agent({ model: rollingModel('call-1'), tools: [roll] }).runStream('roll');
    const events = await all(stream.events);
    const result = await stream.result;

    expect(summary(events)).toEqual([
      'turn-start t0 a1',
      'text-delta t0 Let me roll.',
      'tool-call-start t0 call-1 roll',
      'tool-call-delta t0 call-1 roll {"sides"',
      'tool-call-delta t0 call-1 roll :6}',
      'tool-call-end t0 call-1 roll {"sides":6}',
      'turn-end t0 a1',
      'tool-result t0 call-1 roll 4',
      'turn-start t1 a1',
      'text-delta t1 You rolled ',
      'text-delta t1 a 4.',
      'turn-end t1 a1',
      'finish',
    ]);
    expect(callIds(result.messages)).toEqual(['call-1', 'call-1']);
    const last = events[events.length - 1];
    expect(last?.type === 'finish' && last.result).toBe(result);
    const ends = events.filter((e) => e.type === 'turn-end');
    expect(ends.map((e) => e.message)).toEqual([result.messages[1], result.messages[3]]);
  });

  test('a provider that sends no call id: every event carries the engine id the messages hold', async () => {
    const stream = new Agent({ model: rollingModel(undefined), tools: [roll] }).runStream('roll');
    const events = await all(stream.events);
    const result = await stream.result;

    const [id] = callIds(result.messages);
    expect(id).toBe('golem_1_0');
    const toolEvents = events.filter((e) => 'callId' in e);
    expect(toolEvents).toHaveLength(5);
    for (const event of toolEvents) {
      expect(event).toMatchObject({ callId: id, toolName: 'roll' });
    }
    expect(callIds(result.messages)).toEqual([id, id]);
  });

  test('a provider that repeats an id: the events carry the suffixed ids the messages hold', async () => {
    const model = new StreamFunctionModel(async (request, emit) => {
      if (request.messages.some((m) => m.role === 'tool')) return textResponse('done');
      await emit({ toolCalls: [{ index: 0, id: 'dup', name: 'roll', argsFragment: '{}' }] });
      await emit({ toolCalls: [{ index: 1, id: 'dup', name: 'roll', argsFragment: '{}' }] });
      return toolCallResponse([
        { id: 'dup', name: 'roll' },
        { id: 'dup', name: 'roll' },
      ]);
    });
    const stream = new Agent({ model, tools: [roll] }).runStream('go');
    const events = await all(stream.events);
    const result = await stream.result;

    expect(callIds(result.messages)).toEqual(['dup', 'dup_1', 'dup', 'dup_1']);
    const ids = (type: string) =>
      events.flatMap((e) => (e.type === type && 'callId' in e ? [e.callId] : []));
    expect(ids('tool-call-start')).toEqual(['dup', 'dup_1']);
    expect(ids('tool-call-delta')).toEqual(['dup', 'dup_1']);
    expect(ids('tool-call-end')).toEqual(['dup', 'dup_1']);
    expect(ids('tool-result')).toEqual(['dup', 'dup_1']);
  });

  test('raw deltas of an id-less provider get the engine id on the first fragment only', async () => {
    const stream = new Agent({ model: rollingModel(undefined), tools: [roll] }).runStream('roll');
    const deltas = await all(stream);
    await stream.result;

    expect(deltas.filter((d) => d.toolCalls !== undefined)).toEqual([
      { toolCalls: [{ index: 0, id: 'golem_1_0', name: 'roll' }] },
      { toolCalls: [{ index: 0, argsFragment: '{"sides"' }] },
      { toolCalls: [{ index: 0, argsFragment: ':6}' }] },
    ]);
  });

  test('calls the model did not stream, or streamed before naming, still start before they end', async () => {
    const model = new StreamFunctionModel(async (request, emit) => {
      if (request.messages.some((m) => m.role === 'tool')) return textResponse('done');
      await emit({ toolCalls: [{ index: 0, id: 'late', argsFragment: '{}' }] });
      await emit({ toolCalls: [{ index: 0, name: 'roll' }] });
      return toolCallResponse([
        { id: 'late', name: 'roll', args: '{}' },
        { id: 'silent', name: 'roll', args: '{"sides":4}' },
      ]);
    });
    const events = await all(new Agent({ model, tools: [roll] }).runStream('go').events);

    expect(summary(events).slice(0, 7)).toEqual([
      'turn-start t0 a1',
      'tool-call-start t0 late roll',
      'tool-call-delta t0 late roll {}',
      'tool-call-end t0 late roll {}',
      'tool-call-start t0 silent roll',
      'tool-call-end t0 silent roll {"sides":4}',
      'turn-end t0 a1',
    ]);
  });

  test('thinking fragments become thinking-delta events of their turn', async () => {
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ thinking: [{ index: 0, text: 'hmm' }] });
      await emit({ thinking: [{ index: 0, signature: 'sig' }] });
      await emit({ content: 'ok' });
      return textResponse('ok');
    });
    const events = await all(new Agent({ model }).runStream('go').events);

    expect(summary(events)).toEqual([
      'turn-start t0 a1',
      'thinking-delta t0 hmm',
      'text-delta t0 ok',
      'turn-end t0 a1',
      'finish',
    ]);
  });

  test('a tool error the model may correct is a tool-error event, and the run goes on', async () => {
    const picky = defineTool({
      name: 'picky',
      schema: { type: 'object', properties: {} },
      execute: () => {
        throw new ModelRetry('try again');
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'p1', name: 'picky' }]),
      textResponse('gave up'),
    ]);
    const stream = new Agent({ model, tools: [picky], toolRetries: 1 }).runStream('go');
    const events = await all(stream.events);

    expect(summary(events)).toEqual([
      'turn-start t0 a1',
      'tool-call-start t0 p1 picky',
      'tool-call-end t0 p1 picky {}',
      'turn-end t0 a1',
      'tool-error t0 p1 picky',
      'turn-start t1 a1',
      'text-delta t1 gave up',
      'turn-end t1 a1',
      'finish',
    ]);
    const toolError = events.find((e) => e.type === 'tool-error');
    expect(toolError?.type === 'tool-error' && ModelRetry.is(toolError.error)).toBe(true);
    expect((await stream.result).output).toBe('gave up');
  });

  test('a tool failure that fails the run: tool-error, then error at the tool stage', async () => {
    const broken = defineTool({
      name: 'broken',
      schema: { type: 'object', properties: {} },
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    const model = new ScriptedModel([toolCallResponse([{ id: 'b1', name: 'broken' }])]);
    const stream = new Agent({ model, tools: [broken] }).runStream('go');
    const events = await all(stream.events);

    expect(summary(events).slice(-2)).toEqual(['tool-error t0 b1 broken', 'error tool']);
    const last = events[events.length - 1];
    expect(last?.type === 'error' && last.error).toBe(await rejection(stream.result));
  });

  test('an output correction round: correction event, then the new answer in a new turn', async () => {
    const exact: OutputDecoder<string> = (response) => {
      if (response.message.content !== 'exact') throw new ModelRetry('say exact');
      return 'exact';
    };
    const model = new ScriptedModel([textResponse('almost'), textResponse('exact')]);
    const stream = new Agent({ model, output: exact, outputRetries: 1 }).runStream('go');
    const events = await all(stream.events);

    expect(summary(events)).toEqual([
      'turn-start t0 a1',
      'text-delta t0 almost',
      'turn-end t0 a1',
      'correction round 1',
      'turn-start t0 a1',
      'text-delta t0 exact',
      'turn-end t0 a1',
      'finish',
    ]);
    const correction = events[3];
    expect(correction?.type === 'correction' && ModelRetry.is(correction.error)).toBe(true);
  });

  test('a streamed attempt another model answers instead is discarded, then the turn starts over', async () => {
    const down = new ModelHTTPError({ status: 503, provider: 'primary' });
    const primary = new ScriptedModel([down], { name: 'primary' });
    const backup = new ScriptedModel([textResponse('from backup')], { name: 'backup' });
    const stream = new Agent({ model: new FallbackModel([primary, backup]) }).runStream('go');
    const events = await all(stream.events);

    expect(summary(events)).toEqual([
      'turn-start t0 a1',
      'turn-discarded t0 a1',
      'turn-start t0 a1',
      'text-delta t0 from backup',
      'turn-end t0 a1',
      'finish',
    ]);
    const discarded = events[1];
    expect(discarded?.type === 'turn-discarded' && discarded.error).toBe(down);
  });

  test('a run that pauses: deferred with the pending calls, then finish with the paused result', async () => {
    const pay = defineTool({
      name: 'pay',
      schema: { type: 'object', properties: {} },
      approval: true,
      execute: () => 'paid',
    });
    const model = new ScriptedModel([toolCallResponse([{ id: 'pay-1', name: 'pay' }])]);
    const stream = new Agent({ model, tools: [pay], deferredTools: true }).runStream('pay');
    const events = await all(stream.events);
    const result = await stream.result;

    expect(summary(events)).toEqual([
      'turn-start t0 a1',
      'tool-call-start t0 pay-1 pay',
      'tool-call-end t0 pay-1 pay {}',
      'turn-end t0 a1',
      'deferred pay-1',
      'finish',
    ]);
    const deferred = events[4];
    expect(deferred?.type === 'deferred' && deferred.pending).toEqual(result.pending);
    expect(result.pending?.approvals).toHaveLength(1);
  });

  test('a failed run: error is the last event, iteration ends normally, result rejects, evidence kept', async () => {
    const failure = new Error('provider down');
    const model = new StreamFunctionModel(async (request, emit) => {
      if (!request.messages.some((m) => m.role === 'tool'))
        return toolCallResponse([{ id: 'r1', name: 'roll' }]);
      await emit({ content: 'You rolled' });
      throw failure;
    });
    const stream = new Agent({ model, tools: [roll] }).runStream('roll');
    const events = await all(stream.events);
    const error = await rejection(stream.result);

    const last = events[events.length - 1];
    expect(last?.type).toBe('error');
    expect(last?.type === 'error' && last.error).toBe(error);
    expect(RunError.is(error) && error.stage).toBe('model');
    expect((error as RunError).cause).toBe(failure);
    expect((error as RunError).partial?.interrupted?.content).toBe('You rolled');
    expect(callIds((error as RunError).partial?.messages ?? [])).toEqual(['r1', 'r1']);
    expect(summary(events).slice(-3)).toEqual([
      'turn-start t1 a1',
      'text-delta t1 You rolled',
      'error model',
    ]);
  });

  test('a failure that is no RunError (invalid input) rejects the events iteration', async () => {
    const stream = new Agent({ model: new ScriptedModel([]) }).runStream(42 as unknown as string);

    const thrown = await rejection(all(stream.events));
    expect(RunInputError.is(thrown)).toBe(true);
    expect(await rejection(stream.result)).toBe(thrown);
  });

  test('events read after the run settled are all there, in order', async () => {
    const stream = new Agent({ model: rollingModel('call-1'), tools: [roll] }).runStream('roll');
    await stream.result;

    const events = await all(stream.events);
    expect(events[0]?.type).toBe('turn-start');
    expect(events[events.length - 1]?.type).toBe('finish');
    expect(events).toHaveLength(13);
  });
});

describe('textStream', () => {
  test('yields only the text; a later turn is set apart by a blank line', async () => {
    const stream = new Agent({ model: rollingModel('call-1'), tools: [roll] }).runStream('roll');
    const texts = await all(stream.textStream);

    expect(texts).toEqual(['Let me roll.', '\n\n', 'You rolled ', 'a 4.']);
    expect((await stream.result).output).toBe('You rolled a 4.');
  });

  test('a failed run ends the text normally; result rejects', async () => {
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'half' });
      throw new Error('cut');
    });
    const stream = new Agent({ model }).runStream('go');

    expect(await all(stream.textStream)).toEqual(['half']);
    expect(RunError.is(await rejection(stream.result))).toBe(true);
  });
});

describe('one reader per stream', () => {
  test.each([
    ['deltas then events', 'deltas', 'events', /already read by iterating the stream \(deltas\)/],
    ['events then deltas', 'events', 'deltas', /already read by stream\.events/],
    ['textStream then events', 'text', 'events', /already read by stream\.textStream/],
    ['events twice', 'events', 'events', /already read by stream\.events/],
  ] as const)('%s: the second reader throws TypeError', async (_name, first, second, message) => {
    const stream = new Agent({ model: new ScriptedModel([textResponse('hi')]) }).runStream('go');
    const view = (name: 'deltas' | 'events' | 'text'): AsyncIterable<unknown> =>
      name === 'deltas' ? stream : name === 'events' ? stream.events : stream.textStream;
    const reader = view(first)[Symbol.asyncIterator]();

    expect(() => view(second)[Symbol.asyncIterator]()).toThrow(TypeError);
    expect(() => view(second)[Symbol.asyncIterator]()).toThrow(message);
    await reader.next();
    expect((await stream.result).output).toBe('hi');
  });

  test('partialOutput stays a separate feed beside the events', async () => {
    const stream = new Agent({ model: new ScriptedModel([textResponse('hi')]) }).runStream('go');
    const [events, partials] = await Promise.all([all(stream.events), all(stream.partialOutput)]);

    expect(events[events.length - 1]?.type).toBe('finish');
    expect(partials[partials.length - 1]).toBe('hi');
  });
});
