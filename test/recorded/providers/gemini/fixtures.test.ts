/**
 * Every recorded Google fixture (../shared/fixtures/providers/google, g01–g13) through the
 * adapter against the loopback replay server: the normalised result equals the fixture's
 * `*.expected.json`, signatures are preserved byte-for-byte, and — where the fixture recorded the
 * request a real client sent — the contents we build for the same conversation match it.
 */
import { ModelHTTPError, type Delta, type ModelResponse } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { cases, type Case, type Expected } from './fixture-cases';
import {
  jsonReply,
  modelFor,
  parsedCalls,
  rejection,
  request,
  sseFromLines,
  sseReply,
} from '../../../src/providers/gemini/helpers';
import { sharedJson, sharedText } from './recorded';
import { expectedDetails, recordedView } from '../../recorded-view';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

/** Every `thoughtSignature` in a recorded body, in order. */
function recordedSignatures(text: string): string[] {
  return [...text.matchAll(/"thoughtSignature"\s*:\s*"([^"]*)"/g)].map((m) => m[1] ?? '');
}

function ourSignatures(response: ModelResponse): { on_part: string; value: string }[] {
  const blocks = (response.message.thinking ?? []).flatMap((b) =>
    b.signature === undefined ? [] : [{ on_part: 'text', value: b.signature }],
  );
  const calls = (response.message.toolCalls ?? []).flatMap((c) =>
    c.signature === undefined ? [] : [{ on_part: 'functionCall', value: c.signature }],
  );
  return [...blocks, ...calls];
}

function unified(suggestion: string | undefined): string {
  return suggestion?.startsWith('tool-calls') === true ? 'tool_calls' : (suggestion ?? '');
}

function bodyFile(c: Case): string {
  return `${c.fixture}.${c.body === 'json' ? 'json' : c.body === 'sse' ? 'sse' : 'chunks.txt'}`;
}

async function run(c: Case): Promise<{ response: ModelResponse; deltas: Delta[] }> {
  const raw = sharedText(bodyFile(c));
  const model = modelFor(server, c.options);
  const deltas: Delta[] = [];
  if (c.body === 'json') {
    server.push(jsonReply(JSON.parse(raw)));
    return { response: await model.generate(c.request), deltas };
  }
  server.push(sseReply(c.body === 'sse' ? raw : sseFromLines(raw)));
  const response = await model.stream(c.request, (delta) => {
    deltas.push(delta);
  });
  return { response, deltas };
}

describe.each(cases)('fixture $fixture', (c) => {
  const expected = sharedJson<Expected>(`${c.fixture}.expected.json`);
  const e = expected.expected;

  test('normalises to the values of its expected.json', async () => {
    const { response } = await run(c);
    const view = recordedView(response, {
      provider: 'gemini',
      model: c.options?.model ?? 'gemini-2.5-flash',
    });
    expect({
      id: view.responseId,
      model: view.modelName,
      text: view.message.content ?? '',
      reasoning: (view.message.thinking ?? []).flatMap((b) => b.text ?? []),
      tool_calls: parsedCalls(view),
      usage: view.usage,
      finish: view.finishReason,
    }).toEqual({
      id: e.id,
      model: e.model,
      text: e.text,
      reasoning: (e.reasoning ?? []).map((r) => r.text),
      tool_calls: e.tool_calls,
      usage: {
        inputTokens: e.usage?.input_tokens,
        outputTokens: e.usage?.output_tokens,
        ...expectedDetails(e.usage ?? {}),
      },
      finish: unified(e.finish_reason_unified_suggestion),
    });
    const ours = ourSignatures(response);
    expect(ours.map((s) => ({ on_part: s.on_part, length: s.value.length }))).toEqual(
      (e.thought_signatures ?? []).map((s) => ({
        on_part: s.on_part.startsWith('text') ? 'text' : s.on_part,
        length: s.length,
      })),
    );
    expect(ours.map((s) => s.value).sort()).toEqual(
      recordedSignatures(sharedText(bodyFile(c))).sort(),
    );
    for (const call of response.message.toolCalls ?? []) expect(call.id).toMatch(/^\w+_\d+$/);
  });

  test('calls the recorded endpoint path', async () => {
    await run(c);
    const url = expected.http.url;
    const path = url === null ? undefined : new URL(url);
    const method = c.body === 'json' ? 'generateContent' : 'streamGenerateContent?alt=sse';
    expect(server.requests[0]?.url).toBe(
      path === undefined
        ? `/v1beta/models/${c.options?.model ?? 'gemini-2.5-flash'}:${method}`
        : `${path.pathname}${path.search}`,
    );
  });

  if (c.recorded === true)
    test('builds the contents the recording sent for the same conversation', async () => {
      await run(c);
      const sent = server.requests[0]?.json as Record<string, Record<string, unknown>>;
      const recorded = sharedJson<Record<string, Record<string, unknown>>>(
        `${c.fixture}.request.json`,
      );
      const base64 = (value: unknown) =>
        JSON.parse(JSON.stringify(value).replace(/-/g, '+').replace(/_/g, '/')) as unknown;
      expect(base64(sent.contents)).toEqual(base64(recorded.contents));
      expect(sent.systemInstruction?.parts).toEqual(recorded.systemInstruction?.parts);
      const names = (body: Record<string, unknown>) =>
        ((body.tools as { functionDeclarations: { name: string }[] }[] | undefined) ?? []).map(
          (t) => t.functionDeclarations.map((d) => d.name),
        );
      expect(names(sent)).toEqual(names(recorded));
    });
});

describe('recorded request details', () => {
  test('g02: temperature 0 is sent as 0 and nothing else', async () => {
    await run(cases[1] as Case);
    expect((server.requests[0]?.json as Record<string, unknown>).generationConfig).toEqual(
      sharedJson<Record<string, unknown>>('g02-text.stream.request.json').generationConfig,
    );
  });

  test('g07: the compiled parameters equal what the google-genai SDK sent', async () => {
    await run(cases[6] as Case);
    const tools = (json: unknown) => (json as { tools: unknown[] }).tools;
    expect(tools(server.requests[0]?.json)).toEqual(
      tools(sharedJson('g07-parallel-tool-calls.stream.request.json')),
    );
  });

  test('g09: responseJsonSchema and responseMimeType as recorded', async () => {
    await run(cases[8] as Case);
    const recorded = sharedJson<{ generationConfig: Record<string, unknown> }>(
      'g09-structured-output.request.json',
    );
    const { responseModalities: _modalities, ...expected } = recorded.generationConfig;
    expect((server.requests[0]?.json as Record<string, unknown>).generationConfig).toEqual(
      expected,
    );
  });

  test('g10: thinkingConfig.includeThoughts as recorded', async () => {
    await run(cases[9] as Case);
    expect((server.requests[0]?.json as Record<string, unknown>).generationConfig).toEqual(
      sharedJson<Record<string, unknown>>('g10-thinking.stream.request.json').generationConfig,
    );
  });
});

describe.each([
  { fixture: 'g12-error-404', model: 'gemini-3.6-flahs', base: '/v1beta' },
  {
    fixture: 'g13-error-400-vertex',
    model: 'gemini-3-flash-preview',
    base: '/v1beta1/projects/gen-lang-client-0498264908/locations/global/publishers/google',
  },
])('error fixture $fixture', ({ fixture, model, base }) => {
  test('becomes a ModelHTTPError with the provider status string and message', async () => {
    const expected = sharedJson<Expected>(`${fixture}.expected.json`);
    const error = expected.expected.error;
    server.push(jsonReply(JSON.parse(sharedText(`${fixture}.json`)), error?.http_status));
    const thrown = await rejection(
      modelFor(server, { model, baseURL: `${server.url}${base}` }).generate(
        request([userMessage('hello')]),
      ),
    );
    expect(ModelHTTPError.is(thrown)).toBe(true);
    const http = thrown as ModelHTTPError;
    expect({
      status: http.status,
      code: http.code,
      retryable: http.retryable,
      message: http.message,
    }).toEqual({
      status: error?.http_status,
      code: error?.body.error.status,
      retryable: false,
      message: `gemini: HTTP ${error?.http_status}: ${error?.body.error.message}`,
    });
    expect(server.requests[0]?.url).toBe(new URL(expected.http.url ?? '').pathname);
    if (fixture === 'g12-error-404')
      expect((server.requests[0]?.json as Record<string, unknown>).contents).toEqual(
        sharedJson<Record<string, unknown>>(`${fixture}.request.json`).contents,
      );
  });
});
