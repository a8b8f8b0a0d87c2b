import { parseUsage } from '../../../../src/providers/openai/usage';

describe('OpenAI-compatible usage', () => {
  test('completion tokens already include reasoning (OpenAI counting)', () => {
    const usage = parseUsage({
      prompt_tokens: 10,
      completion_tokens: 50,
      total_tokens: 60,
      completion_tokens_details: { reasoning_tokens: 40 },
      prompt_tokens_details: { cached_tokens: 4 },
    });
    expect(usage).toEqual({
      inputTokens: 10,
      outputTokens: 50,
      reasoningTokens: 40,
      cacheReadTokens: 4,
    });
  });

  test('reasoning counted apart (total = prompt + completion + reasoning, as xAI) joins the output', () => {
    const usage = parseUsage({
      prompt_tokens: 307,
      completion_tokens: 26,
      total_tokens: 588,
      completion_tokens_details: { reasoning_tokens: 255 },
    });
    expect(usage.outputTokens).toBe(281);
    expect(usage.reasoningTokens).toBe(255);
  });

  test('without a total the completion count stands', () => {
    const usage = parseUsage({
      prompt_tokens: 3,
      completion_tokens: 7,
      completion_tokens_details: { reasoning_tokens: 5 },
    });
    expect(usage.outputTokens).toBe(7);
  });

  test('a missing or malformed usage object gives zeros', () => {
    expect(parseUsage(undefined)).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(parseUsage({ prompt_tokens: 'x', completion_tokens: -1 })).toEqual({
      inputTokens: 0,
      outputTokens: 0,
    });
  });
});
