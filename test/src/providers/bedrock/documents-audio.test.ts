/**
 * Documents and audio on Bedrock Converse, through the real SDK against a loopback server: the
 * exact `document` and `audio` blocks sent (bytes as base64, `s3://` locations, sanitised and
 * distinct document names), and every part Converse cannot take refused before anything is
 * signed or sent.
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
import { jsonReply, ownFixture, rejection, useHarness } from './support';
import { UnsupportedHostedToolError } from '../../../support/internal-errors';

const harness = useHarness();

async function sentBody(request: ModelRequest): Promise<unknown> {
  const { server, model } = harness.current;
  server.push(jsonReply(ownFixture('converse-text.json')));
  await model().generate(request);
  return server.requests[server.requests.length - 1]!.json;
}

const ask = (parts: Part[], content = 'Summarise.'): ModelRequest => ({
  messages: [{ role: 'user', content, parts }],
  tools: [],
});
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]);

test('documents: format from the media type, names sanitised and made distinct, bytes or s3 source', async () => {
  const body = await sentBody(
    ask([
      documentData('application/pdf', pdf, { name: 'Q3 report (final).pdf' }),
      documentData('application/pdf', pdf, { name: 'Q3 report (final).pdf' }),
      textDocument('a,b\n1,2', { name: 'data: 2025/10' }),
      documentUrl('s3://bucket/contract.docx', {
        mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    ]),
  );
  expect(body).toEqual({
    messages: [
      {
        role: 'user',
        content: [
          { text: 'Summarise.' },
          { document: { format: 'pdf', name: 'Q3 report (final)', source: { bytes: b64(pdf) } } },
          {
            document: { format: 'pdf', name: 'Q3 report (final) (2)', source: { bytes: b64(pdf) } },
          },
          {
            document: {
              format: 'txt',
              name: 'data- 2025-10',
              source: { bytes: b64(new TextEncoder().encode('a,b\n1,2')) },
            },
          },
          {
            document: {
              format: 'docx',
              name: 'document 0-3',
              source: { s3Location: { uri: 's3://bucket/contract.docx' } },
            },
          },
        ],
      },
    ],
  });
});

test('audio: format from the media type (audio/mpeg is mp3), bytes or s3 source', async () => {
  const wav = new Uint8Array([0x52, 0x49, 0x46, 0x46]);
  const body = await sentBody(
    ask(
      [audioData('audio/x-wav', wav), audioUrl('s3://bucket/call.mp3', 'audio/mpeg')],
      'Transcribe.',
    ),
  );
  expect(body).toEqual({
    messages: [
      {
        role: 'user',
        content: [
          { text: 'Transcribe.' },
          { audio: { format: 'wav', source: { bytes: b64(wav) } } },
          { audio: { format: 'mp3', source: { s3Location: { uri: 's3://bucket/call.mp3' } } } },
        ],
      },
    ],
  });
});

test.each<[string, ModelRequest, string]>([
  [
    'a document without text beside it',
    ask([documentData('application/pdf', pdf)], ''),
    'Converse requires text beside a document in the same message; give the prompt text',
  ],
  [
    'a sixth document in one message',
    ask(Array.from({ length: 6 }, () => documentData('application/pdf', pdf))),
    'Converse takes at most 5 documents in one message',
  ],
  [
    'a document over 4.5 MB',
    ask([documentData('application/pdf', new Uint8Array(4.5 * 1024 * 1024 + 1))]),
    'Converse takes documents of at most 4.5 MB; this one is 4718593 bytes (put it in S3 and pass its s3:// URL)',
  ],
  [
    'a document by https URL',
    ask([documentUrl('https://example.com/a.pdf', { mediaType: 'application/pdf' })]),
    'Converse takes document parts as bytes or s3:// URLs, not other URLs; send the bytes',
  ],
  [
    'a document URL without a media type',
    ask([documentUrl('s3://bucket/a')]),
    "Converse needs the document's media type to be one of application/pdf, text/plain, text/markdown, text/csv, text/html, application/msword, application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/vnd.ms-excel, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ],
  [
    'AIFF audio',
    ask([audioData('audio/aiff', new Uint8Array([1]))]),
    'Converse takes audio as wav, mp3, aac, ogg, flac, webm, m4a; give the media type of one of them',
  ],
])('refused before sending: %s', async (_name, request, reason) => {
  const { server, model } = harness.current;
  const error = await rejection(model().generate(request));
  expect(UnsupportedPartError.is(error)).toBe(true);
  expect(error).toMatchObject({ provider: 'bedrock', reason });
  expect(server.requests).toHaveLength(0);
});

test('hosted tools are refused: Converse runs none', async () => {
  const { server, model } = harness.current;
  const error = await rejection(model().generate({ ...ask([]), hostedTools: [webSearchTool()] }));
  expect(UnsupportedHostedToolError.is(error)).toBe(true);
  expect((error as Error).message).toBe(
    'bedrock: cannot offer the hosted tool "web_search": Converse runs no provider-hosted tools; use golem/providers/openai-responses, anthropic or gemini for web search',
  );
  expect(server.requests).toHaveLength(0);
});
