/**
 * Documents and audio on chat completions (OpenAI-compatible and Azure), against a loopback
 * server: a PDF as a `file` part (`file_data` as a data URL, with a `filename`), WAV and MP3 as
 * `input_audio`, and every part the API cannot take refused before anything is sent, naming the
 * provider and the part.
 */
import {
  UnsupportedPartError,
  audioData,
  audioUrl,
  documentData,
  documentUrl,
  textDocument,
  webSearchTool,
  type ModelRequest,
  type Part,
} from 'golem';
import { azure } from 'golem/providers/azure';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { completion } from './support';
import { UnsupportedHostedToolError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const model = () =>
  openai({ model: 'gpt-own', preset: 'openai', apiKey: 'sk-own', baseURL: server.url });
const ask = (parts: Part[]): ModelRequest => ({
  messages: [{ role: 'user', content: 'What is in these?', parts }],
  tools: [],
});

test('a PDF becomes a file part, WAV and MP3 become input_audio parts, after the text', async () => {
  server.push({ body: JSON.stringify(completion({ content: 'ok' })) });
  const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46]);
  await model().generate(
    ask([
      documentData('application/pdf', pdf, { name: 'invoice.pdf' }),
      documentData('application/pdf', pdf),
      audioData('audio/wav', new Uint8Array([1, 2, 3])),
      audioData('audio/mp3', new Uint8Array([4, 5, 6])),
    ]),
  );
  expect(server.requests[0]?.json).toEqual({
    model: 'gpt-own',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in these?' },
          {
            type: 'file',
            file: { filename: 'invoice.pdf', file_data: 'data:application/pdf;base64,JVBERg==' },
          },
          {
            type: 'file',
            file: { filename: 'document.pdf', file_data: 'data:application/pdf;base64,JVBERg==' },
          },
          { type: 'input_audio', input_audio: { data: 'AQID', format: 'wav' } },
          { type: 'input_audio', input_audio: { data: 'BAUG', format: 'mp3' } },
        ],
      },
    ],
  });
});

test.each<[string, Part, string]>([
  [
    'a text document',
    textDocument('notes'),
    'openai: cannot send message 0 part 0 (document, text/plain, 5 bytes): chat completions takes only PDF files; send text as message content, or use golem/providers/openai-responses for other file types',
  ],
  [
    'a document by URL',
    documentUrl('https://example.com/a.pdf?token=secret'),
    'openai: cannot send message 0 part 0 (document, https://example.com/a.pdf): chat completions takes document parts only as inline bytes, not by URL; send the bytes (documentData) or use golem/providers/openai-responses, which fetches file URLs',
  ],
  [
    'FLAC audio',
    audioData('audio/flac', new Uint8Array([1])),
    'openai: cannot send message 0 part 0 (audio, audio/flac, 1 bytes): chat completions takes audio only as WAV or MP3',
  ],
  [
    'audio by URL',
    audioUrl('https://example.com/a.wav'),
    'openai: cannot send message 0 part 0 (audio, https://example.com/a.wav): chat completions takes audio parts only as inline bytes, not by URL; send the bytes (audioData) or use golem/providers/openai-responses, which fetches file URLs',
  ],
])('refused before sending: %s', async (_name, part, message) => {
  const error: unknown = await model()
    .generate(ask([part]))
    .catch((e: unknown) => e);
  expect(UnsupportedPartError.is(error)).toBe(true);
  expect((error as Error).message).toBe(message);
  expect(server.requests).toHaveLength(0);
});

test('Azure takes the same parts and names itself in refusals', async () => {
  const model = azure({
    endpoint: server.url,
    deployment: 'd',
    apiVersion: '2024-10-21',
    apiKey: 'azure-key',
  });
  const error: unknown = await model
    .generate(ask([textDocument('notes')]))
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ kind: 'UnsupportedPartError', provider: 'azure' });
  server.push({ body: JSON.stringify(completion({ content: 'ok' })) });
  await model.generate(ask([audioData('audio/mpeg', new Uint8Array([9]))]));
  expect(server.requests[0]?.json).toMatchObject({
    messages: [
      {
        content: [
          { type: 'text' },
          { type: 'input_audio', input_audio: { data: 'CQ==', format: 'mp3' } },
        ],
      },
    ],
  });
});

test('hosted tools are refused: chat completions runs none', async () => {
  const error: unknown = await model()
    .generate({ ...ask([]), hostedTools: [webSearchTool()] })
    .catch((e: unknown) => e);
  expect(UnsupportedHostedToolError.is(error)).toBe(true);
  expect(error).toMatchObject({ provider: 'openai', toolType: 'web_search' });
  expect(server.requests).toHaveLength(0);
});
