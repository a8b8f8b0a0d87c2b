/** Construction: explicit configuration, validated up front (model ConfigError). */
import { isStreamingModel, ConfigError } from 'golem';
import { GeminiModel, gemini, type GeminiOptions } from 'golem/providers/gemini';

function configError(options: unknown): string {
  try {
    gemini(options as GeminiOptions);
  } catch (error) {
    expect(ConfigError.is(error, 'model')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a model ConfigError');
}

const base = { model: 'gemini-2.5-flash', apiKey: 'k-123456' };

test('the factory and the class build the same streaming model named gemini:<model>', () => {
  const model = gemini(base);
  expect(model).toBeInstanceOf(GeminiModel);
  expect(new GeminiModel(base).name).toBe('gemini:gemini-2.5-flash');
  expect(isStreamingModel(model)).toBe(true);
  expect(gemini({ ...base, model: 'models/gemini-2.0-flash' }).name).toBe(
    'gemini:gemini-2.0-flash',
  );
});

test.each([
  [{ apiKey: 'k' }, 'model must be a Gemini model id'],
  [{ ...base, model: '' }, 'model must be a Gemini model id'],
  [{ ...base, model: 'gemini/../x' }, 'model must be a Gemini model id'],
  [{ ...base, model: 'gemini-2.5-flash:generateContent?x' }, 'model must be a Gemini model id'],
  [{ model: 'gemini-2.5-flash' }, 'apiKey is required'],
  [{ ...base, apiKey: '  ' }, 'apiKey must be a non-empty string'],
  [{ ...base, accessToken: 'tok' }, 'set apiKey or accessToken, not both'],
  [{ model: 'm', accessToken: 42 }, 'accessToken must be'],
  [{ ...base, baseURL: 'ftp://example.com' }, 'baseURL must be an http(s) URL'],
  [{ ...base, baseURL: 'not a url' }, 'baseURL must be an http(s) URL'],
  [{ ...base, baseURL: 'https://example.com/v1?key=x' }, 'must not carry a query'],
  [{ ...base, baseURL: 'https://example.com/v1', apiVersion: 'v1' }, 'not both'],
  [{ ...base, apiVersion: 'beta' }, 'apiVersion must look like'],
  [{ ...base, headers: { a: 1 } }, 'headers must map names to strings'],
  [{ ...base, fetch: 'fetch' }, 'fetch must be a function'],
  [{ ...base, thinking: { budget: -2 } }, 'thinking.budget must be an integer >= -1'],
  [{ ...base, thinking: { level: 'max' } }, 'thinking.level must be one of'],
  [{ ...base, thinking: { budget: 10, level: 'low' } }, 'exclusive'],
  [{ ...base, thinking: { includeThoughts: 'yes' } }, 'includeThoughts must be a boolean'],
  [{ ...base, settings: { temperature: 3 } }, 'temperature must be a number in [0, 2]'],
  [{ ...base, settings: { topP: -1 } }, 'topP must be a number in [0, 1]'],
  [{ ...base, settings: { maxTokens: 1.5 } }, 'maxTokens must be an integer >= 0'],
  [{ ...base, outputSchemaField: 'schema' }, 'outputSchemaField must be'],
  [{ ...base, timeout: -1 }, 'timeout must be an integer >= 0'],
  [{ ...base, maxLineBytes: 0 }, 'maxLineBytes must be a positive integer'],
])('RQ-1: %j is rejected: %s', (options, message) => {
  expect(configError(options)).toContain(message);
});

test('errors never echo the API key', () => {
  expect(configError({ ...base, apiKey: 'secret-key-value', accessToken: 'x' })).not.toContain(
    'secret-key-value',
  );
});

test('apiVersion picks the version of the default root', async () => {
  let url = '';
  const model = gemini({
    ...base,
    apiVersion: 'v1',
    fetch: (input) => {
      url = input;
      return Promise.resolve(
        new Response('{"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":"STOP"}]}'),
      );
    },
  });
  await model.generate({ messages: [{ role: 'user', content: 'q' }], tools: [] });
  expect(url).toBe(
    'https://generativelanguage.googleapis.com/v1/models/gemini-2.5-flash:generateContent',
  );
});

test('the default root is v1beta, and a trailing slash on baseURL is dropped', async () => {
  const urls: string[] = [];
  const fetch = (input: string) => {
    urls.push(input);
    return Promise.resolve(
      new Response('{"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":"STOP"}]}'),
    );
  };
  const req = { messages: [{ role: 'user' as const, content: 'q' }], tools: [] };
  await gemini({ ...base, fetch }).generate(req);
  await gemini({ ...base, fetch, baseURL: 'http://proxy.local/gemini/v1beta/' }).generate(req);
  expect(urls).toEqual([
    'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent',
    'http://proxy.local/gemini/v1beta/models/gemini-2.5-flash:generateContent',
  ]);
});

test('changing the options object after construction changes nothing', () => {
  const options: GeminiOptions = { ...base, settings: { temperature: 1 } };
  const model = gemini(options);
  options.model = 'other';
  (options.settings as { temperature: number }).temperature = 9;
  expect(model.name).toBe('gemini:gemini-2.5-flash');
});
