import type { Message } from '../../core/contract/message';
import type { Part } from '../../core/contract/part';
import { isTextDocument, mediaEssence } from '../../core/contract/part-media';
import type { PartLocation } from '../../core/contract/unsupported';
import { base64Of, checkInlineTotal, isInline, refusePart, utf8Text } from '../shared/parts';
import { PROVIDER } from './options';
import type { WireDocument } from './wire';

/** The Messages API's request size limit (32 MB), applied to the base64 of the inline parts. */
export const MAX_INLINE_BYTES = 32 * 1024 * 1024;

/** Refuses the part that takes the request's inline media past {@link MAX_INLINE_BYTES}. */
export function checkInlineSize(messages: readonly Message[]): void {
  checkInlineTotal(
    PROVIDER,
    messages,
    MAX_INLINE_BYTES,
    'the Messages API takes requests of at most 32 MB',
  );
}

/**
 * A document or audio part as a content block. Documents become `document` blocks: a PDF as a
 * `base64` source, or by URL as a `url` source; a text document (plain text, Markdown, CSV,
 * HTML) as a `text` source with its UTF-8 text (`media_type: text/plain`, the only text type the
 * API takes). `name` becomes the block's `title`. Audio, Office documents, text by URL and text
 * that is not UTF-8 are `UnsupportedPartError`s.
 */
export function mediaBlock(part: Part, at: PartLocation): WireDocument {
  if (part.kind === 'audio')
    throw refusePart(
      PROVIDER,
      part,
      at,
      'the Messages API takes no audio input; transcribe it first, or use an adapter that takes audio (openai, gemini, bedrock)',
    );
  const block = documentSource(part, at);
  if (part.name !== undefined && part.name !== '') block.title = part.name;
  return block;
}

function documentSource(part: Part, at: PartLocation): WireDocument {
  const type = part.mediaType === undefined ? undefined : mediaEssence(part.mediaType);
  if (!isInline(part)) {
    if (type !== undefined && type !== 'application/pdf')
      throw refusePart(
        PROVIDER,
        part,
        at,
        'the Messages API fetches only PDFs by URL; send other documents as bytes (documentData)',
      );
    return { type: 'document', source: { type: 'url', url: part.url ?? '' } };
  }
  if (type === 'application/pdf')
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: base64Of(part.data) },
    };
  if (type === undefined || !isTextDocument(type))
    throw refusePart(
      PROVIDER,
      part,
      at,
      'the Messages API takes PDF and plain-text documents; convert Office files to PDF first',
    );
  const text = utf8Text(part.data);
  if (text === undefined)
    throw refusePart(PROVIDER, part, at, 'a text document must be UTF-8 encoded');
  return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } };
}
