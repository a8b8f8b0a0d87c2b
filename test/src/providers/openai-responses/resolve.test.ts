/**
 * `resolveModel('openai-responses:<model>')`: the adapter built with `OPENAI_API_KEY`, its
 * overrides, and the compile-time model type.
 */
import { expectTypeOf } from 'expect-type';
import { OpenAIResponsesModel } from 'golem/providers/openai-responses';
import { resolveModel } from 'golem/providers/resolve';
import { firstRequest, recordingFetch } from '../resolve/support';

test('openai-responses:gpt-5 builds the Responses adapter with OPENAI_API_KEY at /v1/responses', async () => {
  const { fetch, seen } = recordingFetch();
  const model = resolveModel('openai-responses:gpt-5', { env: { OPENAI_API_KEY: 'sk-r' }, fetch });
  expectTypeOf(model).toEqualTypeOf<OpenAIResponsesModel>();
  expect(model).toBeInstanceOf(OpenAIResponsesModel);
  const request = await firstRequest(model, seen);
  expect([model.name, request.url, request.headers.authorization]).toEqual([
    'openai-responses:gpt-5',
    'https://api.openai.com/v1/responses',
    'Bearer sk-r',
  ]);
  expect(request.body).toMatchObject({ model: 'gpt-5', store: false });
});

test("overrides['openai-responses'] replace the key and reach the adapter", async () => {
  const { fetch, seen } = recordingFetch();
  const model = resolveModel('openai-responses:gpt-5', {
    env: {},
    fetch,
    overrides: {
      'openai-responses': { apiKey: 'sk-o', baseURL: 'https://proxy.test/v1', store: true },
    },
  });
  const request = await firstRequest(model, seen);
  expect([request.url, request.headers.authorization]).toEqual([
    'https://proxy.test/v1/responses',
    'Bearer sk-o',
  ]);
  expect(request.body).toMatchObject({ store: true });
});
