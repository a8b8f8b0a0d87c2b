/**
 * The recorded view (recorded-view.ts) itself: what it converts and checks, and — against the raw
 * recordings, not the derived `*.expected.json` — that the values the fixture suites expect for
 * `responseId` and the cache/reasoning counts are the wire's own, and that Gemini's wire counts
 * thoughts apart from `candidatesTokenCount` (the one conversion the view makes).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelResponse, Usage } from 'golem';
import { RECORDED_DIRS, recordedDir } from './fixtures-root';
import { expectedDetails, expectedId, recordedUsage, recordedView } from './recorded-view';

const stamped: ModelResponse = {
  message: {
    role: 'assistant',
    content: 'hi',
    thinking: [{ text: 't', signature: 's', provider: 'gemini', model: 'gemini-2.5-flash' }],
    toolCalls: [
      {
        id: 'c1',
        name: 'f',
        args: '{}',
        signature: 'sig',
        signatureProvider: 'gemini',
        signatureModel: 'gemini-2.5-flash',
      },
      { id: 'c2', name: 'g', args: '{}' },
    ],
  },
  usage: { inputTokens: 9, outputTokens: 43, reasoningTokens: 34, cacheReadTokens: 2 },
  finishReason: 'stop',
  modelName: 'gemini-2.5-flash',
  responseId: 'r-1',
};

describe('recordedView', () => {
  test('removes checked stamps, keeps the id and details, and shows Gemini output without thoughts', () => {
    const before = JSON.stringify(stamped);
    expect(recordedView(stamped, { provider: 'gemini', model: 'gemini-2.5-flash' })).toEqual({
      message: {
        role: 'assistant',
        content: 'hi',
        thinking: [{ text: 't', signature: 's' }],
        toolCalls: [
          { id: 'c1', name: 'f', args: '{}', signature: 'sig' },
          { id: 'c2', name: 'g', args: '{}' },
        ],
      },
      usage: { inputTokens: 9, outputTokens: 9, reasoningTokens: 34, cacheReadTokens: 2 },
      finishReason: 'stop',
      modelName: 'gemini-2.5-flash',
      responseId: 'r-1',
    });
    expect(JSON.stringify(stamped)).toBe(before);
  });

  test('other providers count reasoning inside outputTokens, as their recordings do', () => {
    const usage: Usage = { inputTokens: 12, outputTokens: 789, reasoningTokens: 415 };
    expect(recordedUsage(usage, 'deepseek')).toEqual(usage);
    expect(recordedUsage({ inputTokens: 1, outputTokens: 5 }, 'gemini')).toEqual({
      inputTokens: 1,
      outputTokens: 5,
    });
  });

  test.each([
    ['another provider on a block', { provider: 'anthropic' }, /thinking block stamped by gemini/],
    [
      'another model on a block',
      { provider: 'gemini', model: 'gemini-2.5-pro' },
      /thinking block stamped with model gemini-2\.5-flash/,
    ],
  ])('a wrong stamp fails the view: %s', (_what, origin, message) => {
    expect(() => recordedView(stamped, origin)).toThrow(message);
  });

  test('an unstamped block or a wrongly stamped call fails the view', () => {
    const unstamped = {
      ...stamped,
      message: { role: 'assistant' as const, thinking: [{ text: 't' }] },
    };
    expect(() => recordedView(unstamped, { provider: 'gemini' })).toThrow(/stamped by undefined/);
    const call = { ...stamped.message.toolCalls![0]!, signatureProvider: 'vertex' };
    const wrong = { ...stamped, message: { role: 'assistant' as const, toolCalls: [call] } };
    expect(() => recordedView(wrong, { provider: 'gemini' })).toThrow(/call c1 stamped by vertex/);
  });

  test('expectedDetails reads every provider spelling and drops 0 and null', () => {
    expect(expectedDetails({ cache_read_input_tokens: 0, cache_creation_input_tokens: 7 })).toEqual(
      {
        cacheWriteTokens: 7,
      },
    );
    expect(expectedDetails({ cached_input_tokens: 320, reasoning_tokens: 39 })).toEqual({
      cacheReadTokens: 320,
      reasoningTokens: 39,
    });
    expect(expectedDetails({ thoughts_tokens: 34, cached_content_tokens: null })).toEqual({
      reasoningTokens: 34,
    });
    expect(expectedDetails({ cache_read_input_tokens: null, cache_write_input_tokens: 3 })).toEqual(
      {
        cacheWriteTokens: 3,
      },
    );
    expect(expectedId(null)).toEqual({});
    expect(expectedId('msg_1')).toEqual({ responseId: 'msg_1' });
  });
});

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  typeof value === 'object' && value !== null ? (value as Json) : {};

/** Every JSON payload of a recorded body: the body, each SSE `data:` line, or each event. */
function wireFrames(dir: string, base: string): Json[] {
  const file = (ext: string) =>
    join(recordedDir(dir as (typeof RECORDED_DIRS)[number]), base + ext);
  const lines = (ext: string) =>
    readFileSync(file(ext), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
  if (existsSync(file('.json'))) return [obj(JSON.parse(readFileSync(file('.json'), 'utf8')))];
  if (existsSync(file('.events.jsonl')))
    return lines('.events.jsonl').map((line) => obj(obj(JSON.parse(line)).payload));
  if (existsSync(file('.chunks.txt'))) return lines('.chunks.txt').map((l) => obj(JSON.parse(l)));
  return lines('.sse')
    .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '[DONE]')
    .map((line) => obj(JSON.parse(line.slice(5))));
}

/** The last value the wire reported for a usage counter (streams repeat and grow them). */
function lastCount(frames: Json[], read: (usage: Json) => unknown): number | undefined {
  let found: number | undefined;
  for (const frame of frames) {
    const usage = obj(frame.usage ?? obj(frame.message).usage ?? frame.usageMetadata);
    const value = read(usage);
    if (typeof value === 'number') found = value;
  }
  return found;
}

/** The cache/reasoning counts as the wire reports them, in our detail names (positive only). */
function wireDetails(frames: Json[]): Partial<Usage> {
  const read = (usage: Json) =>
    obj(usage.prompt_tokens_details).cached_tokens ??
    usage.cache_read_input_tokens ??
    usage.cacheReadInputTokens ??
    usage.cachedContentTokenCount;
  const write = (usage: Json) => usage.cache_creation_input_tokens ?? usage.cacheWriteInputTokens;
  const reasoning = (usage: Json) =>
    obj(usage.completion_tokens_details).reasoning_tokens ?? usage.thoughtsTokenCount;
  const details: Partial<Usage> = {};
  const put = (key: keyof Usage, n: number | undefined) => {
    if (n !== undefined && n > 0) details[key] = n;
  };
  put('cacheReadTokens', lastCount(frames, read));
  put('cacheWriteTokens', lastCount(frames, write));
  put('reasoningTokens', lastCount(frames, reasoning));
  return details;
}

interface Recorded {
  expected: { id?: string | null; usage?: Json; error?: unknown };
}

const successes = RECORDED_DIRS.flatMap((dir) =>
  readdirSync(recordedDir(dir))
    .filter((file) => file.endsWith('.expected.json'))
    .map((file) => ({ dir, base: file.slice(0, -'.expected.json'.length) }))
    .filter(({ dir: d, base }) => {
      const path = join(recordedDir(d), `${base}.expected.json`);
      return (JSON.parse(readFileSync(path, 'utf8')) as Recorded).expected.error === undefined;
    }),
);

describe('the expectations of the recorded view are the wire values', () => {
  test('every provider folder has success fixtures', () => {
    expect([...new Set(successes.map((s) => s.dir))].sort()).toEqual([...RECORDED_DIRS].sort());
  });

  test.each(successes)(
    '$dir/$base: the response id and cache/reasoning counts',
    ({ dir, base }) => {
      const { expected } = JSON.parse(
        readFileSync(join(recordedDir(dir), `${base}.expected.json`), 'utf8'),
      ) as Recorded;
      const frames = wireFrames(dir, base);
      const ids = frames.flatMap((f) => [f.id, f.responseId, obj(f.message).id]);
      const wireIds = [...new Set(ids.filter((id) => typeof id === 'string' && id !== ''))];
      expect(wireIds).toEqual(
        expected.id === undefined || expected.id === null ? [] : [expected.id],
      );
      expect(expectedDetails(expected.usage ?? {})).toEqual(wireDetails(frames));
    },
  );

  test.each(successes.filter((s) => s.dir === 'google'))(
    '$base: Gemini counts thoughts apart from candidatesTokenCount (total = prompt + both)',
    ({ dir, base }) => {
      const frames = wireFrames(dir, base);
      const prompt = lastCount(frames, (u) => u.promptTokenCount) ?? 0;
      const candidates = lastCount(frames, (u) => u.candidatesTokenCount) ?? 0;
      const thoughts = lastCount(frames, (u) => u.thoughtsTokenCount) ?? 0;
      expect(lastCount(frames, (u) => u.totalTokenCount)).toBe(prompt + candidates + thoughts);
    },
  );
});
