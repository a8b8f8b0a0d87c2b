/**
 * Durable text: lone surrogates (U+D800–U+DFFF without their pair) in history survive
 * `encodeMessages` → UTF-8 file → `decodeMessages` losslessly; nothing becomes U+FFFD. String
 * fields are escaped by `JSON.stringify`; tool-call args are raw JSON text, so the codec (and the
 * response boundary, for what models return) writes a literal lone surrogate in them as its
 * `\uXXXX` escape, which parses to the same value.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { decodeMessages, encodeMessages } from '../../../../src/core/codec/codec';
import { escapeLoneSurrogates } from '../../../../src/core/kit/lone-surrogates';
import type { Message } from '../../../../src/core/contract/message';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-durable-text-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `text` as UTF-8 to a real file and reads it back. */
function throughFile(text: string): string {
  const file = join(dir, 'history.json');
  writeFileSync(file, Buffer.from(text, 'utf8'));
  return readFileSync(file, 'utf8');
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** JSON text that writes every string's characters literally (lone surrogates included). */
function literalJson(value: unknown): string {
  if (typeof value === 'string') {
    let escaped = '';
    for (const c of value) {
      escaped += c === '"' || c === '\\' || c < ' ' ? JSON.stringify(c).slice(1, -1) : c;
    }
    return `"${escaped}"`;
  }
  if (Array.isArray(value)) return `[${value.map(literalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(([k, v]) => `${literalJson(k)}:${literalJson(v)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('lone surrogates in tool-call args', () => {
  const args = '{"q":"a\uD800b","r":"\uDC00","pair":"\uD83D\uDE00"}';
  const messages: Message[] = [
    { role: 'assistant', toolCalls: [{ id: 'c1', name: 'search', args }] },
  ];

  test('are encoded as \\uXXXX escapes, so the text is well-formed', () => {
    const text = encodeMessages(messages);
    expect(LONE.test(text)).toBe(false);
    expect(text).toContain('"args":{"q":"a\\ud800b","r":"\\udc00","pair":"\uD83D\uDE00"}');
  });

  test('survive a UTF-8 file round trip with the same JSON value, not U+FFFD', () => {
    const decoded = decodeMessages(throughFile(encodeMessages(messages)));
    const back = decoded[0]?.toolCalls?.[0]?.args ?? '';
    expect(back).not.toContain('\uFFFD');
    expect(JSON.parse(back)).toEqual(JSON.parse(args));
    expect(back).toBe(escapeLoneSurrogates(args));
  });

  test('escaping is exact: escaped args round-trip byte for byte', () => {
    const escaped: Message[] = [
      { role: 'assistant', toolCalls: [{ id: 'c1', name: 'search', args: '{"q":"\\ud800"}' }] },
    ];
    expect(decodeMessages(throughFile(encodeMessages(escaped)))).toStrictEqual(escaped);
  });
});

describe('the response boundary', () => {
  test('a model returning a literal lone surrogate in args: the tool sees it, history keeps it durably', async () => {
    const seen: unknown[] = [];
    const echo = defineTool({
      name: 'echo',
      description: 'Echo the text.',
      schema: { type: 'object', properties: { text: { type: 'string' } } },
      execute: (value: unknown) => {
        seen.push(value);
        return 'ok';
      },
    });
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'echo', args: '{"text":"x\uD800y"}' }]),
      textResponse('done'),
    ]);
    const result = await new Agent({ model, tools: [echo] }).run('go');

    expect(seen).toEqual([{ text: 'x\uD800y' }]);
    expect(result.messages[1]?.toolCalls?.[0]?.args).toBe('{"text":"x\\ud800y"}');
    expect(decodeMessages(throughFile(encodeMessages(result.messages)))).toStrictEqual(
      result.messages,
    );
  });
});

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const unit = fc.oneof(
  loneSurrogate,
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom('"', '\\', '\n', 'a'),
);
const text = fc.string({ unit, minLength: 1, maxLength: 12 });
// Normalised through JSON once: JSON has no -0 (it writes 0), which the comparison would trip on.
const jsonWithSurrogates = fc
  .jsonValue({ maxDepth: 3, stringUnit: unit })
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);

const conversation: fc.Arbitrary<{ messages: Message[]; values: unknown[] }> = fc
  .record({
    content: text,
    id: text,
    name: text,
    thinking: text,
    values: fc.array(jsonWithSurrogates, { minLength: 1, maxLength: 3 }),
    literal: fc.boolean(),
  })
  .map(({ content, id, name, thinking, values, literal }) => ({
    values,
    messages: [
      { role: 'user', content },
      {
        role: 'assistant',
        toolCalls: values.map((value, i) => ({
          id: `${id}${i}`,
          name,
          args: literal ? literalJson(value) : JSON.stringify(value),
        })),
        thinking: [{ text: thinking }],
      },
      { role: 'tool', content, toolCallId: `${id}0`, toolName: name },
    ],
  }));

describe('property: history with lone surrogates survives encode → UTF-8 file → decode', () => {
  test('every string field is equal, every args text parses to the same value', () => {
    fc.assert(
      fc.property(conversation, ({ messages, values }) => {
        const encoded = encodeMessages(messages);
        const read = throughFile(encoded);
        expect(read).toBe(encoded);
        const decoded = decodeMessages(read);
        const calls = decoded[1]?.toolCalls ?? [];
        expect(calls.map((call) => JSON.parse(call.args) as unknown)).toEqual(values);
        const expected = structuredClone(messages);
        for (const call of expected[1]?.toolCalls ?? []) {
          call.args = escapeLoneSurrogates(call.args);
        }
        expect(decoded).toStrictEqual(expected);
      }),
      { numRuns: 100 },
    );
  }, 30_000); // a real file per run: generous for loaded CI machines
});
