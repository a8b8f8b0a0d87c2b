import type { AudioFormat, ContentBlock, DocumentFormat } from '@aws-sdk/client-bedrock-runtime';
import type { Message } from '../../core/contract/message';
import type { Part } from '../../core/contract/part';
import { mediaEssence } from '../../core/contract/part-media';
import type { PartLocation } from '../../core/contract/unsupported';
import { checkPart, isInline, refusePart } from '../shared/parts';
import { PROVIDER } from './sdk';

/** Converse's size limit of one document: 4.5 MB. */
export const MAX_DOCUMENT_BYTES = 4.5 * 1024 * 1024;
/** Converse's limit on the documents of one message: five. */
export const MAX_DOCUMENTS_PER_MESSAGE = 5;

const DOCUMENT_FORMATS: Readonly<Record<string, DocumentFormat>> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

const AUDIO_FORMATS: Readonly<Record<string, AudioFormat>> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/aac': 'aac',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/webm': 'webm',
  'audio/mp4': 'm4a',
};

/** The document names already used in one request (Converse wants them distinct). */
export type DocumentNames = Set<string>;

/**
 * A document or audio part as a Converse block. Documents: `document {format, name, source}`,
 * the format from the media type (pdf, txt, md, csv, html, doc, docx, xls, xlsx), the `name`
 * sanitised to the characters Converse allows (see {@link documentName}) and made distinct, the
 * source the bytes (at most 4.5 MB) or an `s3://` URL; a message may carry five documents and must
 * carry text beside them. Audio: `audio {format, source}` (wav, mp3, aac, ogg, flac, webm, m4a),
 * by bytes or `s3://` URL. Everything else is an `UnsupportedPartError`.
 */
export function mediaBlock(
  message: Message,
  part: Part,
  at: PartLocation,
  names: DocumentNames,
): ContentBlock {
  checkPart(PROVIDER, part, at);
  const essence = part.mediaType === undefined ? '' : mediaEssence(part.mediaType);
  const source = sourceOf(part, at);
  if (part.kind === 'audio') {
    const format = AUDIO_FORMATS[essence];
    if (format === undefined)
      throw refusePart(
        PROVIDER,
        part,
        at,
        `Converse takes audio as ${Object.values(AUDIO_FORMATS).join(', ')}; give the media type of one of them`,
      );
    return { audio: { format, source } };
  }
  const format = DOCUMENT_FORMATS[essence];
  if (format === undefined)
    throw refusePart(
      PROVIDER,
      part,
      at,
      `Converse needs the document's media type to be one of ${Object.keys(DOCUMENT_FORMATS).join(', ')}`,
    );
  if (message.content === undefined || message.content.trim() === '')
    throw refusePart(
      PROVIDER,
      part,
      at,
      'Converse requires text beside a document in the same message; give the prompt text',
    );
  const documents = (message.parts ?? [])
    .slice(0, at.part + 1)
    .filter((p) => p.kind === 'document');
  if (documents.length > MAX_DOCUMENTS_PER_MESSAGE)
    throw refusePart(
      PROVIDER,
      part,
      at,
      `Converse takes at most ${MAX_DOCUMENTS_PER_MESSAGE} documents in one message`,
    );
  if (isInline(part) && part.data.length > MAX_DOCUMENT_BYTES)
    throw refusePart(
      PROVIDER,
      part,
      at,
      `Converse takes documents of at most 4.5 MB; this one is ${part.data.length} bytes (put it in S3 and pass its s3:// URL)`,
    );
  return { document: { format, name: documentName(part.name, at, names), source } };
}

function sourceOf(
  part: Part,
  at: PartLocation,
): { bytes: Uint8Array } | { s3Location: { uri: string } } {
  if (isInline(part)) return { bytes: part.data };
  const url = part.url ?? '';
  if (url.startsWith('s3://')) return { s3Location: { uri: url } };
  throw refusePart(
    PROVIDER,
    part,
    at,
    `Converse takes ${part.kind} parts as bytes or s3:// URLs, not other URLs; send the bytes`,
  );
}

/**
 * A document name Converse accepts: the part's `name` (default `document <message>-<part>`), its
 * extension dropped, every character other than letters, digits, single spaces, hyphens,
 * parentheses and square brackets replaced by a hyphen, at most 200 characters; a name already
 * used in the request gets ` (2)`, ` (3)`… appended.
 */
export function documentName(
  name: string | undefined,
  at: PartLocation,
  names: DocumentNames,
): string {
  const base = (name ?? '')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 190);
  const wanted = base === '' ? `document ${at.message}-${at.part}` : base;
  let chosen = wanted;
  for (let n = 2; names.has(chosen); n++) chosen = `${wanted} (${n})`;
  names.add(chosen);
  return chosen;
}
