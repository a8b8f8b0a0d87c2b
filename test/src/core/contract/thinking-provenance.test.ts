/**
 * Provenance of thinking blocks (`provider`, `model`) and of call signatures
 * (`signatureProvider`, `signatureModel`): the durable JSON carries them additively, old histories
 * without them still decode, and the engine keeps them from a response into the evidence.
 */
import {
  Agent,
  decodeMessages,
  defineTool,
  encodeMessages,
  parseHistory,
  type Message,
  type ModelResponse,
} from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';

const stamped: Message = {
  role: 'assistant',
  toolCalls: [
    {
      id: 'call-1',
      name: 'lookup',
      args: '{"city":"Lagos"}',
      signature: 'call-sig',
      signatureProvider: 'gemini',
      signatureModel: 'gemini-3-pro-preview',
    },
  ],
  thinking: [
    { text: 'Look it up.', signature: 'sig-1', provider: 'anthropic', model: 'claude-sonnet-4-5' },
    { redacted: 'opaque', provider: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5-v1:0' },
  ],
};

describe('durable JSON', () => {
  test('provenance keys are encoded after the existing keys of a block and of a call', () => {
    expect(encodeMessages([stamped])).toBe(
      '[{"role":"assistant","toolCalls":[{"id":"call-1","name":"lookup","args":{"city":"Lagos"},' +
        '"signature":"call-sig","signatureProvider":"gemini","signatureModel":"gemini-3-pro-preview"}],' +
        '"thinking":[{"text":"Look it up.","signature":"sig-1","provider":"anthropic","model":"claude-sonnet-4-5"},' +
        '{"redacted":"opaque","provider":"bedrock","model":"us.anthropic.claude-sonnet-4-5-v1:0"}]}]',
    );
  });

  test('text and parsed-array round trips keep every provenance field', () => {
    expect(decodeMessages(encodeMessages([stamped]))).toEqual([stamped]);
    const parsed: unknown = JSON.parse(encodeMessages([stamped]));
    expect(parseHistory(parsed)).toEqual([stamped]);
  });

  test('a stored history without provenance decodes exactly as before (no keys invented)', () => {
    const old =
      '[{"role":"assistant","toolCalls":[{"id":"c","name":"f","args":{},"signature":"s"}],' +
      '"thinking":[{"text":"t","signature":"sig"}]}]';
    const messages = decodeMessages(old);
    expect(messages).toEqual([
      {
        role: 'assistant',
        toolCalls: [{ id: 'c', name: 'f', args: '{}', signature: 's' }],
        thinking: [{ text: 't', signature: 'sig' }],
      },
    ]);
    expect(encodeMessages(messages)).toBe(old);
  });

  test('empty and null provenance read as absent', () => {
    const messages = decodeMessages(
      '[{"role":"assistant","thinking":[{"text":"t","provider":"","model":null}],' +
        '"toolCalls":[{"id":"c","name":"f","args":{},"signatureProvider":null,"signatureModel":""}]}]',
    );
    expect(messages[0]?.thinking).toEqual([{ text: 't' }]);
    expect(messages[0]?.toolCalls).toEqual([{ id: 'c', name: 'f', args: '{}' }]);
  });

  test('a provenance field that is not a string is refused, naming the field', () => {
    expect(() =>
      decodeMessages('[{"role":"assistant","thinking":[{"text":"t","provider":7}]}]'),
    ).toThrow(/thinking\[0\]\.provider must be a string/);
    expect(() =>
      decodeMessages(
        '[{"role":"assistant","toolCalls":[{"id":"c","name":"f","args":{},"signatureModel":true}]}]',
      ),
    ).toThrow(/toolCalls\[0\]\.signatureModel must be a string/);
  });
});

describe('the engine keeps provenance from the response into the evidence and the next request', () => {
  test('stamped blocks and call signatures survive normalisation, evidence and replay', async () => {
    const lookup = defineTool({
      name: 'lookup',
      schema: { type: 'object' },
      execute: () => 'sunny',
    });
    const first: ModelResponse = { message: stamped, usage: { inputTokens: 1, outputTokens: 1 } };
    const model = new ScriptedModel([first, textResponse('Sunny.')]);
    const result = await new Agent({ model, tools: [lookup] }).run('Weather?');
    expect(result.messages[1]).toEqual(stamped);
    expect(model.lastRequest?.messages[1]).toEqual(stamped);
  });
});
