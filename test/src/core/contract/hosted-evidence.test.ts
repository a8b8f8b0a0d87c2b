/**
 * Provider evidence in the durable JSON (additive keys after `thinking`): hosted tool calls,
 * citations and the response id round trip in contract order, malformed stored values are
 * `HistoryFormatError`s naming the field, `cloneMessage` copies them deeply, and the reasoning
 * item `id` of a thinking block survives too. Also `hostedToolProblem` for every hosted tool.
 */
import fc from 'fast-check';
import {
  HistoryFormatError,
  codeInterpreterTool,
  decodeMessages,
  encodeMessages,
  fileSearchTool,
  parseHistory,
  webSearchTool,
  type Message,
} from 'golem';
import { cloneMessage } from '../../../../src/core/contract/message';
import { hostedToolProblem } from '../../../../src/core/contract/hosted-tool';

const answer: Message = {
  role: 'assistant',
  content: 'It is 31°C in Lagos.',
  thinking: [
    {
      text: 'Search first.',
      signature: 'enc',
      provider: 'openai-responses',
      model: 'gpt-5',
      id: 'rs_1',
    },
  ],
  hostedToolCalls: [
    {
      id: 'ws_1',
      type: 'web_search',
      provider: 'openai-responses',
      status: 'completed',
      input: '{"query":"lagos"}',
      output: '{"sources":[]}',
    },
  ],
  citations: [
    { type: 'url', url: 'https://w.example', title: 'W', start: 0, end: 20, quote: '31°C' },
    { type: 'file', fileId: 'file-1', filename: 'a.pdf', start: 5, end: 5 },
  ],
  responseId: 'resp_1',
};

test('evidence round trips through the durable JSON, keys in contract order', () => {
  const json = encodeMessages([answer]);
  expect(json).toBe(
    '[{"role":"assistant","content":"It is 31°C in Lagos.","thinking":[{"text":"Search first.","signature":"enc","provider":"openai-responses","model":"gpt-5","id":"rs_1"}],' +
      '"hostedToolCalls":[{"id":"ws_1","type":"web_search","provider":"openai-responses","status":"completed","input":"{\\"query\\":\\"lagos\\"}","output":"{\\"sources\\":[]}"}],' +
      '"citations":[{"type":"url","url":"https://w.example","title":"W","start":0,"end":20,"quote":"31°C"},{"type":"file","fileId":"file-1","filename":"a.pdf","start":5,"end":5}],' +
      '"responseId":"resp_1"}]',
  );
  expect(decodeMessages(json)).toEqual([answer]);
  expect(parseHistory(JSON.parse(json))).toEqual([answer]);
});

test('empty evidence is omitted on encode and read as absent', () => {
  const json = encodeMessages([
    { role: 'assistant', content: 'x', hostedToolCalls: [], citations: [], responseId: '' },
  ]);
  expect(json).toBe('[{"role":"assistant","content":"x"}]');
  expect(
    decodeMessages(
      '[{"role":"assistant","hostedToolCalls":null,"citations":[],"responseId":null}]',
    ),
  ).toEqual([{ role: 'assistant' }]);
});

test.each<[string, string]>([
  [
    '[{"role":"assistant","hostedToolCalls":{}}]',
    'history message 0: hostedToolCalls must be an array',
  ],
  [
    '[{"role":"assistant","hostedToolCalls":[{"type":"web_search"}]}]',
    'history message 0: hostedToolCalls[0].id must be a non-empty string',
  ],
  [
    '[{"role":"assistant","hostedToolCalls":[{"id":"a","type":"x","input":{}}]}]',
    'history message 0: hostedToolCalls[0].input must be a string',
  ],
  [
    '[{"role":"assistant","citations":[{"type":"url","start":-1}]}]',
    'history message 0: citations[0].start must be a whole number >= 0',
  ],
  [
    '[{"role":"assistant","citations":[{"type":"url","end":1.5}]}]',
    'history message 0: citations[0].end must be a whole number >= 0',
  ],
  ['[{"role":"assistant","citations":[7]}]', 'history message 0: citations[0] must be an object'],
  ['[{"role":"assistant","responseId":3}]', 'history message 0: responseId must be a string'],
])('malformed stored evidence %s is refused', (json, message) => {
  const error: unknown = (() => {
    try {
      return decodeMessages(json);
    } catch (e) {
      return e;
    }
  })();
  expect(HistoryFormatError.is(error)).toBe(true);
  expect((error as Error).message).toBe(message);
});

test('any well-formed evidence round trips (property)', () => {
  const text = fc.string({ minLength: 1, maxLength: 12 });
  const call = fc.record(
    { id: text, type: text, provider: text, status: text, input: text, output: text },
    { requiredKeys: ['id', 'type'] },
  );
  const citation = fc.record(
    {
      type: text,
      url: text,
      title: text,
      fileId: text,
      filename: text,
      start: fc.nat(),
      end: fc.nat(),
      quote: text,
    },
    { requiredKeys: ['type'] },
  );
  fc.assert(
    fc.property(
      fc.array(call, { minLength: 1, maxLength: 3 }),
      fc.array(citation, { minLength: 1, maxLength: 3 }),
      (calls, citations) => {
        const message: Message = { role: 'assistant', hostedToolCalls: calls, citations };
        expect(decodeMessages(encodeMessages([message]))).toEqual([message]);
      },
    ),
  );
});

test('cloneMessage copies evidence deeply', () => {
  const copy = cloneMessage(answer);
  copy.hostedToolCalls![0]!.status = 'failed';
  copy.citations![0]!.start = 9;
  expect(answer.hostedToolCalls![0]!.status).toBe('completed');
  expect(answer.citations![0]!.start).toBe(0);
  expect(copy.responseId).toBe('resp_1');
});

test.each<[string, unknown, string | undefined]>([
  ['a plain web search', webSearchTool(), undefined],
  ['a file search', fileSearchTool({ vectorStoreIds: ['vs_1'], maxResults: 5 }), undefined],
  [
    'a code interpreter with files',
    codeInterpreterTool({ container: { fileIds: ['f'] } }),
    undefined,
  ],
  [
    'an unknown type',
    { type: 'image_generation' },
    'unknown hosted tool type "image_generation"; known: web_search, file_search, code_interpreter',
  ],
  ['not an object', 'web_search', 'a hosted tool must be an object, e.g. webSearchTool()'],
  [
    'a zero maxUses',
    webSearchTool({ maxUses: 0 }),
    'web_search: maxUses must be a whole number >= 1',
  ],
  [
    'both domain lists',
    webSearchTool({ allowedDomains: ['a'], blockedDomains: ['b'] }),
    'web_search: set allowedDomains or blockedDomains, not both',
  ],
  [
    'an empty domain',
    webSearchTool({ allowedDomains: [''] }),
    'web_search: allowedDomains must be an array of non-empty strings',
  ],
  [
    'a bad context size',
    { type: 'web_search', contextSize: 'huge' },
    'web_search: contextSize must be low, medium or high',
  ],
  [
    'no vector stores',
    { type: 'file_search' },
    'file_search needs vectorStoreIds: at least one vector store id',
  ],
  [
    'a bad container',
    { type: 'code_interpreter', container: 3 },
    'code_interpreter: container must be a container id or { fileIds: string[] }',
  ],
  [
    'bad provider options',
    webSearchTool({ providerOptions: { anthropic: 3 } as never }),
    'web_search: providerOptions must map provider ids to objects of wire fields',
  ],
])('hostedToolProblem: %s', (_name, tool, problem) => {
  expect(hostedToolProblem(tool)).toBe(problem);
});
