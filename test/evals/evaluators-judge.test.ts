import { ConfigError, emptyUsage, type Message, type ModelRequest, type PriceTable } from 'golem';
import { FunctionModel, ScriptedModel, textResponse } from 'golem/testing';
import type { EvalContext } from '../../src/evals/evaluator';
import { JUDGE_VERDICT_SCHEMA, llmJudge } from '../../src/evals/evaluators/llm-judge';
import { pairwiseJudge } from '../../src/evals/evaluators/pairwise-judge';
import { runEvaluator } from '../../src/evals/score';

/** A case run's context for a judge: input, output, expected and a transcript. */
function ctxOf(fields: {
  input?: unknown;
  output: unknown;
  expected?: unknown;
  messages?: Message[];
}): EvalContext {
  const input = fields.input ?? 'Weather in Lagos?';
  return {
    case: { name: 'case-1', input },
    input,
    expected: fields.expected,
    output: fields.output,
    messages: fields.messages ?? [],
    events: [],
    toolCalls: [],
    turns: 1,
    requests: 1,
    usage: emptyUsage(),
    cost: undefined,
    durationMs: 10,
    repeat: 0,
    signal: new AbortController().signal,
  };
}

function verdict(
  reasoning: string,
  pass: boolean,
  score: number,
  usage = { inputTokens: 10, outputTokens: 5 },
) {
  return textResponse(JSON.stringify({ reasoning, pass, score }), usage);
}

/** The prompt (the last user message of the first turn) a request carried. */
function promptOf(request: ModelRequest | undefined): string {
  const user = request?.messages.filter((message) => message.role === 'user') ?? [];
  return user[0]?.content ?? '';
}

const RUBRIC = 'The answer names the city and gives a temperature in Celsius.';

describe('llmJudge', () => {
  it('parses the verdict: reasoning becomes the reason, usage is reported', async () => {
    const model = new ScriptedModel([verdict('Names Lagos and 31°C.', true, 0.9)]);
    const judge = llmJudge({ model, rubric: RUBRIC });
    const result = await runEvaluator(judge, ctxOf({ output: 'Lagos: 31°C, sunny' }));
    expect(result).toEqual({
      name: 'llmJudge',
      pass: true,
      score: 0.9,
      reason: 'Names Lagos and 31°C.',
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    expect(model.calls).toBe(1);
    expect(model.lastRequest?.outputSchema).toEqual(JUDGE_VERDICT_SCHEMA);
  });

  it("follows the judge's pass, or the threshold when one is set", async () => {
    const lenient = llmJudge({
      model: new ScriptedModel([verdict('meh', true, 0.4)]),
      rubric: RUBRIC,
    });
    expect(await runEvaluator(lenient, ctxOf({ output: 'x' }))).toMatchObject({
      pass: true,
      score: 0.4,
    });
    const strict = llmJudge({
      model: new ScriptedModel([verdict('good', true, 0.7)]),
      rubric: RUBRIC,
      threshold: 0.8,
      name: 'weather-judge',
    });
    expect(strict.threshold).toBe(0.8);
    expect(await runEvaluator(strict, ctxOf({ output: 'x' }))).toMatchObject({
      name: 'weather-judge',
      pass: false,
      score: 0.7,
    });
  });

  it('quotes rubric, input, expected and output verbatim; transcript only when asked', async () => {
    const model = new ScriptedModel([
      verdict('ok', true, 1),
      verdict('ok', true, 1),
      verdict('ok', true, 1),
    ]);
    const output = 'Lagos is <b>hot</b> & "humid" — ```js\nalert(1)\n``` done';
    const messages: Message[] = [
      { role: 'system', content: 'SECRET SYSTEM PROMPT' },
      { role: 'user', content: 'Weather in Lagos?' },
      {
        role: 'assistant',
        toolCalls: [{ id: 'c1', name: 'get_weather', args: '{"city":"Lagos"}' }],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'get_weather', content: '31C sunny' },
      { role: 'assistant', content: output },
    ];
    const ctx = ctxOf({ output, expected: { city: 'Lagos' }, messages });

    await runEvaluator(llmJudge({ model, rubric: RUBRIC }), ctx);
    const prompt = promptOf(model.requests[0]);
    expect(prompt).toContain(RUBRIC);
    expect(prompt).toContain('Weather in Lagos?');
    expect(prompt).toContain(output);
    expect(prompt).toContain('"city": "Lagos"');
    expect(prompt).not.toContain('get_weather');
    // The output's own triple backticks cannot close the fence around it.
    expect(prompt).toContain(`## OUTPUT\n\`\`\`\`\n${output}\n\`\`\`\``);
    expect(prompt.indexOf('## RUBRIC')).toBeLessThan(prompt.indexOf('## OUTPUT'));

    await runEvaluator(llmJudge({ model, rubric: RUBRIC, include: { transcript: true } }), ctx);
    const withTranscript = promptOf(model.requests[1]);
    expect(withTranscript).toContain('[assistant calls get_weather] {"city":"Lagos"}');
    expect(withTranscript).toContain('[tool result get_weather] 31C sunny');
    expect(withTranscript).not.toContain('SECRET SYSTEM PROMPT');

    await runEvaluator(
      llmJudge({
        model,
        rubric: RUBRIC,
        include: { input: false, expected: false },
        instructions: 'Be harsh.',
      }),
      ctx,
    );
    const bare = model.requests[2];
    expect(promptOf(bare)).not.toContain('## INPUT');
    expect(promptOf(bare)).not.toContain('## EXPECTED');
    expect(bare?.messages[0]).toMatchObject({ role: 'system', content: 'Be harsh.' });
  });

  it('sends an invalid verdict back, then accepts a corrected one', async () => {
    const model = new ScriptedModel([
      textResponse('I think it passes.'),
      textResponse(JSON.stringify({ reasoning: 'ok', pass: 'yes', score: 1 })),
      verdict('fixed', false, 0.2),
    ]);
    const result = await runEvaluator(llmJudge({ model, rubric: RUBRIC }), ctxOf({ output: 'x' }));
    expect(result).toMatchObject({ pass: false, score: 0.2, reason: 'fixed' });
    expect(model.calls).toBe(3);
    const retry = JSON.stringify(model.requests[2]?.messages);
    expect(retry).toContain('not valid JSON');
    expect(retry).toContain('pass must be true or false');
  });

  it('errors after the output retries are spent', async () => {
    const model = new FunctionModel(() =>
      textResponse(JSON.stringify({ reasoning: 'r', pass: true, score: 3 })),
    );
    const result = await runEvaluator(llmJudge({ model, rubric: RUBRIC }), ctxOf({ output: 'x' }));
    expect(result).toMatchObject({ name: 'llmJudge', pass: false, score: 0 });
    expect(result.error).toContain('llmJudge: the judge gave no valid verdict');
    expect(model.calls).toBe(3);
  });

  it('reports the priced cost of the judge with prices', async () => {
    const prices: PriceTable = {
      cost: (usage) => ({
        total: usage.inputTokens / 1000 + usage.outputTokens / 500,
        input: usage.inputTokens / 1000,
        output: usage.outputTokens / 500,
        currency: 'USD',
      }),
    };
    const model = new ScriptedModel([
      verdict('ok', true, 1, { inputTokens: 100, outputTokens: 50 }),
    ]);
    const result = await runEvaluator(
      llmJudge({ model, rubric: RUBRIC, prices }),
      ctxOf({ output: 'x' }),
    );
    expect(result.cost).toBeCloseTo(0.2);
  });

  it('rejects a missing model or rubric', () => {
    const model = new ScriptedModel([]);
    expect(() => llmJudge({ model, rubric: ' ' })).toThrow(ConfigError);
    expect(() => llmJudge({ model: {} as never, rubric: RUBRIC })).toThrow(
      /model must be a golem Model/,
    );
    expect(() => llmJudge({ model, rubric: RUBRIC, threshold: -1 })).toThrow(ConfigError);
  });
});

describe('pairwiseJudge', () => {
  const BASELINE = 'It is warm.';
  const CANDIDATE = 'Lagos: 31°C and sunny.';

  /** The text between the fences of a section of a prompt. */
  function sectionOf(prompt: string, title: string): string {
    const match = new RegExp(`## ${title}\\n(\`{3,})\\n([\\s\\S]*?)\\n\\1`).exec(prompt);
    return match?.[2] ?? '';
  }

  function ab(winner: (a: string, b: string) => 'A' | 'B' | 'tie') {
    return new FunctionModel((request) => {
      const prompt = promptOf(request);
      const choice = winner(sectionOf(prompt, 'OUTPUT A'), sectionOf(prompt, 'OUTPUT B'));
      return textResponse(JSON.stringify({ reasoning: `chose ${choice}`, winner: choice }), {
        inputTokens: 7,
        outputTokens: 3,
      });
    });
  }

  it('asks both orders and returns the preference they agree on', async () => {
    const model = ab((a) => (a === CANDIDATE ? 'A' : 'B'));
    const judge = pairwiseJudge({ model, rubric: RUBRIC });
    expect(judge.name).toBe('pairwiseJudge');
    const result = await judge.compare('Weather in Lagos?', BASELINE, CANDIDATE, {
      expected: '31°C',
    });
    expect(result).toEqual({
      preferred: 'candidate',
      reason: 'chose B',
      usage: { inputTokens: 14, outputTokens: 6 },
    });
    expect(model.calls).toBe(2);
    const [first, second] = model.requests.map(promptOf);
    expect(sectionOf(first ?? '', 'OUTPUT A')).toBe(BASELINE);
    expect(sectionOf(first ?? '', 'OUTPUT B')).toBe(CANDIDATE);
    expect(sectionOf(second ?? '', 'OUTPUT A')).toBe(CANDIDATE);
    expect(sectionOf(second ?? '', 'OUTPUT B')).toBe(BASELINE);
    expect(first).toContain(RUBRIC);
    expect(sectionOf(first ?? '', 'INPUT')).toBe('Weather in Lagos?');
    expect(sectionOf(first ?? '', 'EXPECTED \\(reference\\)')).toBe('31°C');
    expect(model.lastRequest?.outputSchema).toMatchObject({ required: ['reasoning', 'winner'] });
  });

  it('prefers the baseline when both orders say so', async () => {
    const judge = pairwiseJudge({ model: ab((a) => (a === BASELINE ? 'A' : 'B')), rubric: RUBRIC });
    expect((await judge.compare('q', BASELINE, CANDIDATE)).preferred).toBe('baseline');
  });

  it('returns a tie when the verdicts disagree once the order is swapped', async () => {
    const model = ab(() => 'A');
    const result = await pairwiseJudge({ model, rubric: RUBRIC, name: 'ab' }).compare(
      'q',
      BASELINE,
      CANDIDATE,
    );
    expect(result.preferred).toBe('tie');
    expect(result.reason).toMatch(
      /^position bias: with the baseline as A the judge chose the baseline, with it as B the candidate; counted as a tie/,
    );
    expect(model.calls).toBe(2);
  });

  it('passes a tie through when both orders call it one', async () => {
    const result = await pairwiseJudge({ model: ab(() => 'tie'), rubric: RUBRIC }).compare(
      'q',
      1,
      2,
    );
    expect(result).toMatchObject({ preferred: 'tie', reason: 'chose tie' });
  });

  it('retries a malformed verdict and rejects bad options', async () => {
    const model = new ScriptedModel([
      textResponse(JSON.stringify({ reasoning: 'r', winner: 'C' })),
      textResponse(JSON.stringify({ reasoning: 'r', winner: 'B' })),
      textResponse(JSON.stringify({ reasoning: 'r', winner: 'A' })),
    ]);
    const result = await pairwiseJudge({ model, rubric: RUBRIC }).compare('q', BASELINE, CANDIDATE);
    expect(result.preferred).toBe('candidate');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('winner must be');
    expect(() => pairwiseJudge({ model, rubric: '' })).toThrow(ConfigError);
  });
});
