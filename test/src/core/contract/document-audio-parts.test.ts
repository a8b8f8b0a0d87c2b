/**
 * Document and audio parts: the constructors, `partProblem` (media types per kind, absolute URLs,
 * the 50 MiB cap, names), their validation as run input, the durable codec round trip (the
 * `name` key is additive), and `describePart` keeping URL tokens out of messages.
 */
import {
  Agent,
  RunInputError,
  UnsupportedPartError,
  audioData,
  audioUrl,
  decodeMessages,
  documentData,
  documentUrl,
  encodeMessages,
  imageData,
  textDocument,
  type Message,
  type Part,
} from 'golem';
import { MAX_PART_BYTES, mediaEssence } from '../../../../src/core/contract/part-media';
import { describePart } from '../../../../src/core/contract/unsupported';
import { partProblem } from '../../../../src/core/contract/part';
import { ScriptedModel, textResponse } from 'golem/testing';

const bytes = new Uint8Array([1, 2, 3]);

test('constructors build the documented shapes', () => {
  expect(documentData('application/pdf', bytes, { name: 'a.pdf' })).toEqual({
    kind: 'document',
    data: bytes,
    mediaType: 'application/pdf',
    name: 'a.pdf',
  });
  expect(documentUrl('gs://b/a.pdf', { mediaType: 'application/pdf' })).toEqual({
    kind: 'document',
    url: 'gs://b/a.pdf',
    mediaType: 'application/pdf',
  });
  expect(textDocument('héllo')).toEqual({
    kind: 'document',
    data: new TextEncoder().encode('héllo'),
    mediaType: 'text/plain',
  });
  expect(audioData('audio/wav', bytes)).toEqual({
    kind: 'audio',
    data: bytes,
    mediaType: 'audio/wav',
  });
  expect(audioUrl('s3://b/a.mp3')).toEqual({ kind: 'audio', url: 's3://b/a.mp3' });
});

test.each<[string, Part, string | undefined]>([
  ['a PDF', documentData('application/pdf', bytes), undefined],
  ['a media type with parameters', documentData('text/csv; charset=utf-8', bytes), undefined],
  ['MP3 spelled audio/mp3', audioData('audio/mp3', bytes), undefined],
  ['an image type with an image kind', imageData('image/heic', bytes), undefined],
  [
    'a zip as a document',
    documentData('application/zip', bytes),
    'document part media type "application/zip" is not supported; use one of application/pdf, text/plain, text/markdown, text/csv, text/html, application/msword, application/vnd.openxmlformats-officedocument.wordprocessingml.document, application/vnd.ms-excel, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ],
  [
    'a video as audio',
    audioData('video/mp4', bytes),
    'audio part media type "video/mp4" is not supported; use one of audio/wav, audio/x-wav, audio/wave, audio/mpeg, audio/mp3, audio/aac, audio/ogg, audio/flac, audio/aiff, audio/webm, audio/mp4',
  ],
  [
    'a PDF declared as an image',
    imageData('application/pdf', bytes),
    'image part media type "application/pdf" is not an image type (image/png, image/jpeg…)',
  ],
  [
    'bytes without a type',
    { kind: 'audio', data: bytes },
    'audio part with data needs a media type',
  ],
  [
    'both url and data',
    { kind: 'document', url: 'https://a/b.pdf', data: bytes, mediaType: 'application/pdf' },
    'document part has both url and data; set exactly one',
  ],
  [
    'a relative URL',
    documentUrl('reports/a.pdf'),
    'document part url must be an absolute URL (https://…, gs://…, s3://…)',
  ],
  [
    'an empty name',
    documentData('application/pdf', bytes, { name: ' ' }),
    'document part name must be a non-empty string',
  ],
])('partProblem: %s', (_name, part, problem) => {
  expect(partProblem(part)).toBe(problem);
});

test('inline bytes are capped at MAX_PART_BYTES (50 MiB): the cap passes, one byte more fails', () => {
  const atCap = {
    kind: 'document',
    data: { length: MAX_PART_BYTES },
    mediaType: 'application/pdf',
  };
  const over = { ...atCap, data: { length: MAX_PART_BYTES + 1 } };
  expect(partProblem(atCap as unknown as Part)).toBeUndefined();
  expect(partProblem(over as unknown as Part)).toBe(
    `document part is ${MAX_PART_BYTES + 1} bytes; the limit is ${MAX_PART_BYTES} (50 MiB): send larger files by URL`,
  );
});

test('mediaEssence folds parameters, case and the WAV and MP3 aliases', () => {
  expect(
    ['Text/Plain; charset=UTF-8', 'audio/x-wav', 'audio/wave', 'audio/mp3'].map(mediaEssence),
  ).toEqual(['text/plain', 'audio/wav', 'audio/wav', 'audio/mpeg']);
});

test('a run rejects a malformed document part before any model call', async () => {
  const model = new ScriptedModel([textResponse('x')]);
  const agent = new Agent({ model });
  const error: unknown = await agent
    .run('Read this.', { parts: [documentData('application/zip', bytes)] })
    .catch((e: unknown) => e);
  expect(RunInputError.is(error)).toBe(true);
  expect((error as Error).message).toMatch(
    /^prompt part 0: document part media type "application\/zip"/,
  );
  expect(model.requests).toHaveLength(0);
});

test('documents and audio reach the model on the prompt message and stay in the evidence', async () => {
  const model = new ScriptedModel([textResponse('ok')]);
  const parts = [
    documentData('application/pdf', bytes, { name: 'a.pdf' }),
    audioUrl('https://x.test/a.wav'),
  ];
  const result = await new Agent({ model }).run('Both?', { parts });
  expect(model.lastRequest?.messages.at(-1)?.parts).toEqual(parts);
  expect(result.messages[0]?.parts).toEqual(parts);
});

test('the durable codec keeps kind, data, media type and name (an additive key)', () => {
  const history: Message[] = [
    {
      role: 'user',
      content: 'x',
      parts: [
        documentData('application/pdf', bytes, { name: 'report.pdf' }),
        audioData('audio/wav', new Uint8Array([0, 255])),
        documentUrl('https://x.test/a.pdf'),
      ],
    },
  ];
  const json = encodeMessages(history);
  expect(json).toBe(
    '[{"role":"user","content":"x","parts":[{"kind":"document","data":"AQID","mediaType":"application/pdf","name":"report.pdf"},{"kind":"audio","data":"AP8=","mediaType":"audio/wav"},{"kind":"document","url":"https://x.test/a.pdf"}]}]',
  );
  expect(decodeMessages(json)).toEqual(history);
  // An older reader's output (no name) still decodes.
  expect(
    decodeMessages('[{"role":"user","parts":[{"kind":"image","url":"https://x/a.png"}]}]'),
  ).toEqual([{ role: 'user', parts: [{ kind: 'image', url: 'https://x/a.png' }] }]);
});

test('describePart names kind, type, name and size; a URL without its query or a data URL body', () => {
  expect(describePart(documentData('application/pdf', bytes, { name: 'a.pdf' }))).toBe(
    'document, application/pdf, "a.pdf", 3 bytes',
  );
  expect(describePart(documentUrl('https://x.test/a.pdf?sig=SECRET#p2'))).toBe(
    'document, https://x.test/a.pdf',
  );
  expect(describePart({ kind: 'image', url: 'data:image/png;base64,AAAA' })).toBe(
    'image, data:image/png;base64,…',
  );
  const error = new UnsupportedPartError(
    'p',
    documentUrl('https://x.test/a.pdf?sig=SECRET'),
    { message: 1, part: 2 },
    'no',
  );
  expect(error.message).toBe(
    'p: cannot send message 1 part 2 (document, https://x.test/a.pdf): no',
  );
  expect(error.message).not.toContain('SECRET');
});
