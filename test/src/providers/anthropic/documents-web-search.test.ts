/**
 * Documents and the web search server tool on the Anthropic Messages API, against a loopback
 * server: `document` blocks (PDF by bytes or URL, text as a plain-text source, the name as
 * `title`), parts the API cannot take refused before sending, `web_search_20250305` declared from
 * a hosted tool, and its `server_tool_use` / `web_search_tool_result` blocks and citations kept
 * as evidence from both `generate` and `stream`.
 */
import {
  UnsupportedPartError,
  audioData,
  documentData,
  documentUrl,
  fileSearchTool,
  textDocument,
  webSearchTool,
  type ModelRequest,
  type Part,
  ConfigError,
} from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { DeltaLog, jsonReply, modelFor, ownFixture, sseReply } from './support';
import { UnsupportedHostedToolError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const ask = (parts: Part[], more: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: 'user', content: 'Summarise.', parts }],
  tools: [],
  ...more,
});

test('documents: a PDF as a base64 source, a PDF by URL, text as a plain-text source; names as titles', async () => {
  server.push(jsonReply(ownFixture('message-text.json')));
  const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46]);
  await modelFor(server).generate(
    ask([
      documentData('application/pdf', pdf, { name: 'Q3 report' }),
      documentUrl('https://example.com/letter.pdf'),
      textDocument('# Notes\nShip on Friday.', { name: 'notes.md' }),
      documentData('text/csv; charset=utf-8', new TextEncoder().encode('a,b\n1,2')),
    ]),
  );
  expect((server.requests[0]?.json as { messages: unknown }).messages).toEqual([
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Summarise.' },
        {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERg==' },
          title: 'Q3 report',
        },
        { type: 'document', source: { type: 'url', url: 'https://example.com/letter.pdf' } },
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: '# Notes\nShip on Friday.' },
          title: 'notes.md',
        },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'a,b\n1,2' } },
      ],
    },
  ]);
});

test.each<[string, Part, string]>([
  [
    'audio',
    audioData('audio/wav', new Uint8Array([1])),
    'the Messages API takes no audio input; transcribe it first, or use an adapter that takes audio (openai, gemini, bedrock)',
  ],
  [
    'a Word document',
    documentData('application/msword', new Uint8Array([1])),
    'the Messages API takes PDF and plain-text documents; convert Office files to PDF first',
  ],
  [
    'a text document by URL',
    documentUrl('https://example.com/a.txt', { mediaType: 'text/plain' }),
    'the Messages API fetches only PDFs by URL; send other documents as bytes (documentData)',
  ],
  [
    'text that is not UTF-8',
    documentData('text/plain', new Uint8Array([0xff, 0xfe, 0xfd])),
    'a text document must be UTF-8 encoded',
  ],
])('refused before sending: %s', async (_name, part, reason) => {
  const error: unknown = await modelFor(server)
    .generate(ask([part]))
    .catch((e: unknown) => e);
  expect(UnsupportedPartError.is(error)).toBe(true);
  expect(error).toMatchObject({ provider: 'anthropic', reason, location: { message: 0, part: 0 } });
  expect(server.requests).toHaveLength(0);
});

test('inline parts over the 32 MB request limit are refused at the part that crosses it', async () => {
  const big = new Uint8Array(13 * 1024 * 1024); // 13 MiB, about 17.3 MiB as base64
  const error: unknown = await modelFor(server)
    .generate(ask([documentData('application/pdf', big), documentData('application/pdf', big)]))
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ kind: 'UnsupportedPartError', location: { message: 0, part: 1 } });
  expect((error as Error).message).toContain('the Messages API takes requests of at most 32 MB');
  expect(server.requests).toHaveLength(0);
});

test('web search: web_search_20250305 with its options, after the local tools', async () => {
  server.push(jsonReply(ownFixture('server-tool-citations.json')));
  await modelFor(server).generate(
    ask([], {
      tools: [{ name: 'lookup', description: '', schema: { type: 'object', properties: {} } }],
      hostedTools: [
        webSearchTool({
          maxUses: 3,
          allowedDomains: ['weather.example'],
          userLocation: { city: 'Lagos', country: 'NG', timezone: 'Africa/Lagos' },
          providerOptions: { anthropic: { cache_control: { type: 'ephemeral' } } },
        }),
      ],
    }),
  );
  expect((server.requests[0]?.json as { tools: unknown }).tools).toEqual([
    { name: 'lookup', input_schema: { type: 'object', properties: {} } },
    {
      type: 'web_search_20250305',
      name: 'web_search',
      max_uses: 3,
      allowed_domains: ['weather.example'],
      user_location: {
        type: 'approximate',
        city: 'Lagos',
        country: 'NG',
        timezone: 'Africa/Lagos',
      },
      cache_control: { type: 'ephemeral' },
    },
  ]);
});

test('web search streamed: the server tool input from its deltas, the results without encrypted content, the citation span', async () => {
  server.push(sseReply(ownFixture('web-search.stream.sse')));
  const log = new DeltaLog();
  const response = await modelFor(server).stream(
    ask([], { hostedTools: [webSearchTool()] }),
    log.handler,
  );
  expect(log.text).toBe('Here is what I found: it is sunny and 31°C.');
  expect(log.deltas.some((d) => d.toolCalls !== undefined)).toBe(false); // never a local call
  expect(response.message).toEqual({
    role: 'assistant',
    content: 'Here is what I found: it is sunny and 31°C.',
    hostedToolCalls: [
      {
        id: 'srvtoolu_own_01',
        type: 'web_search',
        provider: 'anthropic',
        status: 'completed',
        input: '{"query":"lagos weather"}',
        output:
          '[{"type":"web_search_result","title":"Lagos weather","url":"https://weather.example/lagos","page_age":"June 1, 2025"}]',
      },
    ],
    citations: [
      {
        type: 'url',
        url: 'https://weather.example/lagos',
        title: 'Lagos weather',
        quote: 'Sunny, 31°C today in Lagos.',
        start: 22,
        end: 43,
      },
    ],
  });
  expect(response.finishReason).toBe('stop');
});

test('other hosted tools are refused; a local tool named web_search clashes with the server tool', async () => {
  const refused: unknown = await modelFor(server)
    .generate(ask([], { hostedTools: [fileSearchTool({ vectorStoreIds: ['vs_1'] })] }))
    .catch((e: unknown) => e);
  expect(UnsupportedHostedToolError.is(refused)).toBe(true);
  expect(refused).toMatchObject({ provider: 'anthropic', toolType: 'file_search' });
  const clash: unknown = await modelFor(server)
    .generate(
      ask([], {
        tools: [{ name: 'web_search', description: '', schema: { type: 'object' } }],
        hostedTools: [webSearchTool()],
      }),
    )
    .catch((e: unknown) => e);
  expect(ConfigError.is(clash, 'model')).toBe(true);
  expect(server.requests).toHaveLength(0);
});
