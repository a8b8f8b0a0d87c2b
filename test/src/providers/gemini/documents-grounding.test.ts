/**
 * Documents, audio and grounding with Google Search on Gemini, against a loopback server:
 * `inlineData` / `fileData` parts with their MIME types, parts Gemini cannot take refused before
 * sending, the `google_search` tool from a hosted web search, and `groundingMetadata` kept as a
 * hosted call and citations whose UTF-8 byte offsets become string indexes.
 */
import {
  UnsupportedPartError,
  audioData,
  audioUrl,
  codeInterpreterTool,
  documentData,
  documentUrl,
  textDocument,
  webSearchTool,
  type Part,
} from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { jsonReply, modelFor, ownText, rejection, request, sseReply } from './helpers';
import { UnsupportedHostedToolError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const reply = () => jsonReply(JSON.parse(ownText('grounding.json')));
const ask = (parts: Part[]) => request([{ role: 'user', content: 'Summarise.', parts }]);

test('documents and audio: inline bytes as inlineData, URLs as fileData; MP3 sent as audio/mp3', async () => {
  server.push(reply());
  const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46]);
  await modelFor(server).generate(
    ask([
      documentData('application/pdf', pdf),
      textDocument('hello'),
      documentUrl('gs://bucket/report.pdf', { mediaType: 'application/pdf' }),
      audioData('audio/mpeg', new Uint8Array([1, 2, 3])),
      audioUrl('https://generativelanguage.googleapis.com/v1beta/files/abc', 'audio/wav'),
    ]),
  );
  expect((server.requests[0]?.json as { contents: unknown }).contents).toEqual([
    {
      role: 'user',
      parts: [
        { text: 'Summarise.' },
        { inlineData: { mimeType: 'application/pdf', data: 'JVBERg==' } },
        { inlineData: { mimeType: 'text/plain', data: 'aGVsbG8=' } },
        { fileData: { mimeType: 'application/pdf', fileUri: 'gs://bucket/report.pdf' } },
        { inlineData: { mimeType: 'audio/mp3', data: 'AQID' } },
        {
          fileData: {
            mimeType: 'audio/wav',
            fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc',
          },
        },
      ],
    },
  ]);
});

test.each<[string, Part, string]>([
  [
    'a spreadsheet',
    documentData('application/vnd.ms-excel', new Uint8Array([1])),
    'Gemini reads PDF and text documents; convert Office files to PDF first',
  ],
  [
    'WebM audio',
    audioData('audio/webm', new Uint8Array([1])),
    'Gemini understands audio as WAV, MP3, AIFF, AAC, OGG or FLAC',
  ],
])('refused before sending: %s', async (_name, part, reason) => {
  const error = await rejection(modelFor(server).generate(ask([part])));
  expect(UnsupportedPartError.is(error)).toBe(true);
  expect(error).toMatchObject({ provider: 'gemini', reason });
  expect(server.requests).toHaveLength(0);
});

test('inline data over 20 MB per request is refused at the part that crosses it', async () => {
  const big = new Uint8Array(8 * 1024 * 1024); // about 10.7 MiB as base64
  const error = await rejection(
    modelFor(server).generate(
      ask([documentData('application/pdf', big), documentData('application/pdf', big)]),
    ),
  );
  expect(error).toMatchObject({ kind: 'UnsupportedPartError', location: { message: 0, part: 1 } });
  expect((error as Error).message).toContain(
    'Gemini takes at most 20 MB of inline data per request',
  );
});

test('grounding: google_search sent beside the declarations; queries, chunks and supports become evidence', async () => {
  server.push(reply());
  const response = await modelFor(server).generate(
    request([{ role: 'user', content: 'Lagos weather and the Euro 2024 winner?' }], {
      tools: [
        {
          name: 'lookup',
          description: 'Look up',
          schema: { type: 'object', properties: { q: { type: 'string' } } },
        },
      ],
      hostedTools: [webSearchTool()],
    }),
  );
  expect((server.requests[0]?.json as { tools: unknown }).tools).toEqual([
    {
      functionDeclarations: [
        {
          name: 'lookup',
          description: 'Look up',
          parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } } },
        },
      ],
    },
    { google_search: {} },
  ]);
  const one = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/own-1';
  const two = 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/own-2';
  expect(response.message.hostedToolCalls).toEqual([
    {
      id: 'google_search-1',
      type: 'web_search',
      provider: 'gemini',
      status: 'completed',
      input: '{"queries":["lagos weather today","euro 2024 winner"]}',
      output: JSON.stringify({
        chunks: [
          { web: { uri: one, title: 'weather.example' } },
          { web: { uri: two, title: 'uefa.example' } },
        ],
        searchEntryPoint: { renderedContent: '<div class="container">search chips</div>' },
      }),
    },
  ]);
  const content = response.message.content ?? '';
  expect(response.message.citations).toEqual([
    { type: 'url', url: one, title: 'weather.example', start: 0, end: 26 },
    { type: 'url', url: two, title: 'uefa.example', start: 27, end: 47 },
    { type: 'url', url: one, title: 'weather.example', start: 27, end: 47 },
  ]);
  expect(content.slice(27, 47)).toBe('Spain won Euro 2024.');
});

test('grounding streamed: metadata on the finishing chunk gives the same evidence as generate', async () => {
  server.push(reply(), sseReply(ownText('grounding.stream.sse')));
  const generated = await modelFor(server).generate(request([{ role: 'user', content: 'x' }]));
  const streamed = await modelFor(server).stream(
    request([{ role: 'user', content: 'x' }]),
    () => undefined,
  );
  expect(streamed.message).toEqual(generated.message);
});

test('domain filters and other hosted tools are refused for Gemini', async () => {
  for (const tool of [webSearchTool({ allowedDomains: ['a.com'] }), codeInterpreterTool()]) {
    const error = await rejection(
      modelFor(server).generate(request([{ role: 'user', content: 'x' }], { hostedTools: [tool] })),
    );
    expect(UnsupportedHostedToolError.is(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'gemini', toolType: tool.type });
  }
  expect(server.requests).toHaveLength(0);
});
