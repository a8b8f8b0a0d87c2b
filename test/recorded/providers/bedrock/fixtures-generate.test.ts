/**
 * Every recorded non-streaming Converse fixture (b01, b03, b05, b07, b09, b11, b12) through
 * `generate`, against a real BedrockRuntimeClient pointed at the replay server: the exact request
 * body, path and SigV4 signature, and the exact normalised response or typed error.
 */
import { ModelHTTPError, isRetryable } from 'golem';
import { expectedBody, requestFromRecording } from './recorded-request';
import {
  CREDENTIALS,
  jsonReply,
  rejection,
  useHarness,
} from '../../../src/providers/bedrock/support';
import { expectedOf, expectedResponse, fixtureBytes, recordedHttp } from './recorded';
import { recordedView } from '../../recorded-view';

const harness = useHarness();

const cases = [
  ['b01-text', 'plain text'],
  ['b03-tool-call', 'a single toolUse'],
  ['b05-parallel-tool-calls', 'text and two parallel toolUse blocks'],
  ['b07-structured-output', 'native structured output (outputConfig.textFormat)'],
  ['b09-reasoning', 'reasoningContent with a signature, then text'],
  ['b11-image-input', 'an inline jpeg image block'],
] as const;

describe('recorded Converse fixtures through generate', () => {
  test.each(cases)(
    '%s (%s) sends the exact recorded body and returns the expected response',
    async (base) => {
      const { server, model } = harness.current;
      server.push(jsonReply(fixtureBytes(`${base}.json`)));
      const expected = expectedOf(base);

      const response = await model({ model: expected.model }).generate(requestFromRecording(base));

      expect(recordedView(response, { provider: 'bedrock', model: expected.model })).toEqual(
        expectedResponse(base),
      );
      expect(server.requests).toHaveLength(1);
      const sent = server.requests[0]!;
      expect(sent.method).toBe('POST');
      expect(sent.url).toBe(recordedHttp(base).path);
      expect(sent.json).toEqual(expectedBody(base));
      expect(sent.headers['content-type']).toBe('application/json');
    },
  );

  test('the request is SigV4-signed with the configured credentials and region', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply(fixtureBytes('b01-text.json')));
    await model().generate(requestFromRecording('b01-text'));
    const headers = server.requests[0]!.headers;
    expect(headers.authorization).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=${CREDENTIALS.accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$`,
      ),
    );
    expect(headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(server.requests[0])).not.toContain(CREDENTIALS.secretAccessKey);
  });

  test('b01 plain text: content, usage 7/30, finish stop, model name', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply(fixtureBytes('b01-text.json')));
    const response = await model().generate(requestFromRecording('b01-text'));
    expect(response).toEqual({
      message: {
        role: 'assistant',
        content:
          "Hello! How can I assist you today? Whether you have questions, need information, or just want to chat, I'm here to help.",
      },
      usage: { inputTokens: 7, outputTokens: 30 },
      finishReason: 'stop',
      modelName: 'us.amazon.nova-micro-v1:0',
    });
  });

  test('b05 parallel calls keep provider ids and order, args as JSON text', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply(fixtureBytes('b05-parallel-tool-calls.json')));
    const response = await model().generate(requestFromRecording('b05-parallel-tool-calls'));
    expect(response.message.toolCalls).toEqual([
      {
        id: 'tooluse_nz0CoSg6TyuVDvWTCaatSw',
        name: 'secret_retrieval_tool',
        args: '{"password":"mellon"}',
      },
      {
        id: 'tooluse_KBNwKhm1RwK4iTLuHbyOtg',
        name: 'secret_retrieval_tool',
        args: '{"password":"radiance"}',
      },
    ]);
    expect(response.finishReason).toBe('tool_calls');
  });

  test('b09 reasoning: one signed thinking block, exactly as recorded', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply(fixtureBytes('b09-reasoning.json')));
    const response = await model().generate(requestFromRecording('b09-reasoning'));
    const reasoning = expectedOf('b09-reasoning').reasoning[0]!;
    expect(response.message.thinking).toEqual([
      {
        text: reasoning.text,
        signature: reasoning.signature,
        provider: 'bedrock',
        model: 'us.amazon.nova-micro-v1:0',
      },
    ]);
    expect(response.message.thinking?.[0]?.signature).toHaveLength(496);
  });

  test('b09 request: thinking enabled with a budget goes to additionalModelRequestFields', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply(fixtureBytes('b09-reasoning.json')));
    await model().generate(requestFromRecording('b09-reasoning'));
    expect(server.requests[0]!.json).toEqual({
      messages: [{ role: 'user', content: [{ text: 'How do I cross the street?' }] }],
      additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } },
    });
  });

  test('b11 image: the jpeg bytes go out base64-encoded exactly as recorded', async () => {
    const { server, model } = harness.current;
    server.push(jsonReply(fixtureBytes('b11-image-input.json')));
    const request = requestFromRecording('b11-image-input');
    expect(request.messages[1]?.parts?.[0]?.mediaType).toBe('image/jpeg');
    await model({ model: 'us.amazon.nova-pro-v1:0' }).generate(request);
    const sent = server.requests[0]!.json as {
      messages: { content: { image?: { format: string; source: { bytes: string } } }[] }[];
    };
    const recorded = expectedBody('b11-image-input') as typeof sent;
    expect(sent.messages[0]!.content[1]!.image).toEqual(recorded.messages[0]!.content[1]!.image);
    expect(sent.messages[0]!.content[1]!.image!.source.bytes.length).toBeGreaterThan(30_000);
  });

  test('b12 HTTP 400 without x-amzn-errortype → ModelHTTPError 400, provider message, no code, not retryable', async () => {
    const { server, model } = harness.current;
    const http = recordedHttp('b12-error-400');
    server.push(jsonReply(fixtureBytes('b12-error-400.json'), http.status));
    const error = await rejection(
      model({ model: 'us.does-not-exist-model-v1:0' }).generate(
        requestFromRecording('b12-error-400'),
      ),
    );
    expect(ModelHTTPError.is(error)).toBe(true);
    const e = error as ModelHTTPError;
    expect({
      status: e.status,
      code: e.code,
      retryable: e.retryable,
      provider: e.provider,
    }).toEqual({
      status: 400,
      code: undefined,
      retryable: false,
      provider: 'bedrock',
    });
    expect(e.message).toBe('bedrock: HTTP 400: The provided model identifier is invalid.');
    expect(isRetryable(e)).toBe(false);
    expect(server.requests[0]!.url).toBe(http.path);
    expect(server.requests[0]!.json).toEqual(expectedBody('b12-error-400'));
  });
});
