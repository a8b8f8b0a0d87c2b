import {
  Agent,
  ConfigError,
  ModelRetry,
  RunError,
  errorChain,
  type ModelResponse,
  type OutputDecoder,
  type RunEvent,
} from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';
import { AttemptsExhaustedError } from '../../../support/internal-errors';
import { brief, eventOf } from '../../../support/run-events';

/** Accepts only the content `exact`; rejects anything else with a ModelRetry naming it. */
const exactOnly: OutputDecoder<string> = (response: ModelResponse) => {
  const content = response.message.content ?? '';
  if (content !== 'exact') throw new ModelRetry(`want exact, got ${content}`);
  return content;
};

function rejectedText(reason: string): string {
  return `Your previous response was rejected: ${reason}. Correct it and respond again.`;
}

async function runError(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail with a RunError');
}

describe('§9 output self-correction', () => {
  test('OR-1 "almost" then "exact" with budget 1: the rejection is a user message, evidence and usage span both rounds', async () => {
    const model = new ScriptedModel([
      textResponse('almost', { inputTokens: 3, outputTokens: 2 }),
      textResponse('exact', { inputTokens: 5, outputTokens: 1 }),
    ]);
    const agent = new Agent({ model, output: exactOnly, outputRetries: 1 });

    const result = await agent.run('Say exact');

    expect(result.output).toBe('exact');
    expect(model.calls).toBe(2);
    expect(model.requests[1]?.messages).toEqual([
      { role: 'user', content: 'Say exact' },
      { role: 'assistant', content: 'almost' },
      {
        role: 'user',
        content:
          'Your previous response was rejected: want exact, got almost. Correct it and respond again.',
      },
    ]);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(result.messages[1]).toEqual({ role: 'assistant', content: 'almost' });
    expect(result.messages[3]).toEqual({ role: 'assistant', content: 'exact' });
    expect(result.usage).toEqual({ inputTokens: 8, outputTokens: 3 });
    expect(result.requests).toBe(2);
  });

  test('OR-1 a correction round emits output_rejected with attempt 1 (the round) and the ModelRetry; turns restart at 0', async () => {
    const model = new ScriptedModel([textResponse('almost'), textResponse('exact')]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model,
      output: exactOnly,
      outputRetries: 1,
      onEvent: (e) => events.push(e),
    });

    await agent.run('Say exact');

    expect(events.map(brief)).toEqual([
      'model_start t0 a1',
      'model_end t0 a1',
      'output_rejected a1',
      'model_start t0 a1',
      'model_end t0 a1',
    ]);
    const rejected = eventOf(events[2], 'output_rejected').error;
    expect(ModelRetry.is(rejected)).toBe(true);
    expect((rejected as ModelRetry).reason).toBe('want exact, got almost');
  });

  test('OR-1 a ModelRetry wrapped in the decoder error is correctable and its inner reason is fed back', async () => {
    const retry = new ModelRetry('needs the word exact');
    const model = new ScriptedModel([textResponse('almost'), textResponse('exact')]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model,
      outputRetries: 1,
      onEvent: (e) => events.push(e),
      output: (response) => {
        if (response.message.content !== 'exact')
          throw new Error('validation failed', { cause: retry });
        return 'exact';
      },
    });

    const result = await agent.run('Say exact');

    expect(result.output).toBe('exact');
    expect(model.requests[1]?.messages[2]).toEqual({
      role: 'user',
      content: rejectedText('needs the word exact'),
    });
    expect(events.find((e) => e.kind === 'output_rejected')?.error).toBe(retry);
  });

  test('OR-1 a ModelRetry with an empty reason renders "(no reason)" in the rejection message (D12)', async () => {
    const model = new ScriptedModel([textResponse('almost'), textResponse('exact')]);
    const agent = new Agent({
      model,
      outputRetries: 1,
      output: (response) => {
        if (response.message.content !== 'exact') throw new ModelRetry('');
        return 'exact';
      },
    });

    await agent.run('Say exact');

    expect(model.requests[1]?.messages[2]).toEqual({
      role: 'user',
      content: 'Your previous response was rejected: (no reason). Correct it and respond again.',
    });
  });

  test('OR-1 each correction round gets a fresh turn budget: maxIterations 1 with one correction succeeds', async () => {
    const model = new ScriptedModel([textResponse('almost'), textResponse('exact')]);
    const agent = new Agent({ model, output: exactOnly, outputRetries: 1, maxIterations: 1 });

    const result = await agent.run('Say exact');

    expect(result.output).toBe('exact');
    expect(model.calls).toBe(2);
  });

  test('OR-1 instructions are evaluated once per run, not again for a correction round', async () => {
    const instructions = jest.fn(() => 'Answer with one word.');
    const model = new ScriptedModel([textResponse('almost'), textResponse('exact')]);
    const agent = new Agent({ model, instructions, output: exactOnly, outputRetries: 1 });

    await agent.run('Say exact');

    expect(instructions).toHaveBeenCalledTimes(1);
    expect(model.requests[1]?.messages[0]).toEqual({
      role: 'system',
      content: 'Answer with one word.',
    });
    expect(model.requests[1]?.messages.filter((m) => m.role === 'system')).toHaveLength(1);
  });

  test('OR-2 a plain decoder error with budget 3 fails at decode immediately, cause preserved, 1 model call', async () => {
    const broken = new Error('decoder exploded');
    const model = new ScriptedModel([textResponse('almost'), textResponse('exact')]);
    const agent = new Agent({
      model,
      outputRetries: 3,
      output: () => {
        throw broken;
      },
    });

    const error = await runError(agent.run('Say exact'));

    expect(error.stage).toBe('decode');
    expect(error.cause).toBe(broken);
    expect(error.message).toBe('golem: decode stage: decoder exploded');
    expect(model.calls).toBe(1);
  });

  test('OR-3 always rejecting with budget 2 fails at decode "after 3 attempts" with the ModelRetry and reason in the chain', async () => {
    const model = new ScriptedModel([
      textResponse('one'),
      textResponse('two'),
      textResponse('three'),
      textResponse('exact'),
    ]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model,
      outputRetries: 2,
      onEvent: (e) => events.push(e),
      output: () => {
        throw new ModelRetry('never good enough');
      },
    });

    const error = await runError(agent.run('Try'));

    expect(error.stage).toBe('decode');
    expect(error.message).toContain('after 3 attempts');
    expect(error.message).toBe(
      'golem: decode stage: output failed validation after 3 attempts: model output rejected: never good enough',
    );
    const chain = [...errorChain(error)];
    const exhausted = chain.find((e) => AttemptsExhaustedError.is(e));
    expect(exhausted).toMatchObject({ budget: 'output', attempts: 3 });
    const retry = chain.find((e) => ModelRetry.is(e));
    expect(retry?.reason).toBe('never good enough');
    expect(model.calls).toBe(3);
    expect(events.filter((e) => e.kind === 'output_rejected').map((e) => e.attempt)).toEqual([
      1, 2,
    ]);
  });

  test('OR-3 the decode failure keeps every rejected response and rejection message as partial evidence', async () => {
    const model = new ScriptedModel([
      textResponse('one', { inputTokens: 1, outputTokens: 1 }),
      textResponse('two', { inputTokens: 2, outputTokens: 2 }),
    ]);
    const agent = new Agent({ model, output: exactOnly, outputRetries: 1 });

    const error = await runError(agent.run('Say exact'));

    expect(error.partial?.messages).toEqual([
      { role: 'user', content: 'Say exact' },
      { role: 'assistant', content: 'one' },
      { role: 'user', content: rejectedText('want exact, got one') },
      { role: 'assistant', content: 'two' },
    ]);
    expect(error.partial?.usage).toEqual({ inputTokens: 3, outputTokens: 3 });
    expect(error.partial?.requests).toBe(2);
    expect(error.message).toBe(
      'golem: decode stage: output failed validation after 2 attempts: model output rejected: want exact, got two',
    );
  });

  test('OR-4 with the default budget 0 a rejection fails at decode unwrapped (no "after"), 1 model call', async () => {
    const model = new ScriptedModel([textResponse('almost'), textResponse('exact')]);
    const agent = new Agent({ model, output: exactOnly });

    const error = await runError(agent.run('Say exact'));

    expect(error.stage).toBe('decode');
    expect(error.message).not.toContain('after');
    expect(error.message).toBe(
      'golem: decode stage: model output rejected: want exact, got almost',
    );
    expect(ModelRetry.is(error.cause)).toBe(true);
    expect((error.cause as ModelRetry).reason).toBe('want exact, got almost');
    expect(model.calls).toBe(1);
  });

  test.each([-1, 1.5, Number.NaN])(
    'OR-5 outputRetries %p is a configuration error at construction',
    (outputRetries) => {
      const model = new ScriptedModel([]);
      let caught: unknown;
      try {
        new Agent({ model, outputRetries });
      } catch (error) {
        caught = error;
      }
      expect(ConfigError.is(caught)).toBe(true);
      expect(RunError.is(caught)).toBe(false);
      expect((caught as Error).message).toContain('outputRetries');
      expect(model.calls).toBe(0);
    },
  );
});
