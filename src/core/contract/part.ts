import {
  AUDIO_MEDIA_TYPES,
  DOCUMENT_MEDIA_TYPES,
  MAX_PART_BYTES,
  isAbsoluteUrl,
  mediaEssence,
} from './part-media';

/**
 * What a part holds: an image, a document (PDF, text, Office) or audio. The union grows additively.
 * @inline
 */
export type PartKind = 'image' | 'document' | 'audio';

/** Non-text content of a user message: an image, a document or audio, by URL or by inline bytes. */
export interface Part {
  kind: PartKind;
  /** URL of the content; exclusive with `data`. */
  url?: string;
  /** Inline bytes; exclusive with `url`; requires `mediaType`. Application-owned, not copied. */
  data?: Uint8Array;
  /** IANA media type, e.g. `image/png`, `application/pdf`, `audio/wav`; required with `data`. */
  mediaType?: string;
  /**
   * File name of a document (`report.pdf`), shown to the model: OpenAI's `filename`, Anthropic's
   * `title`, Bedrock's `name` (sanitised to the characters Bedrock allows).
   */
  name?: string;
}

/**
 * Options of the document constructors.
 * @inline
 */
export interface DocumentOptions {
  /** The file name shown to the model, e.g. `report.pdf`. */
  name?: string;
  /** The media type; required by providers that fetch by URL with a declared type (Gemini). */
  mediaType?: string;
}

/** An image part referring to a URL. */
export function imageUrl(url: string): Part {
  return { kind: 'image', url };
}

/** An image part carrying inline bytes of the given media type. */
export function imageData(mediaType: string, data: Uint8Array): Part {
  return { kind: 'image', data, mediaType };
}

/** A document part carrying inline bytes: `documentData('application/pdf', bytes, { name })`. */
export function documentData(
  mediaType: string,
  data: Uint8Array,
  options: Pick<DocumentOptions, 'name'> = {},
): Part {
  const part: Part = { kind: 'document', data, mediaType };
  if (options.name !== undefined) part.name = options.name;
  return part;
}

/** A document part by URL (`https:`, or a provider store: `gs://`, `s3://`). */
export function documentUrl(url: string, options: DocumentOptions = {}): Part {
  const part: Part = { kind: 'document', url };
  if (options.mediaType !== undefined) part.mediaType = options.mediaType;
  if (options.name !== undefined) part.name = options.name;
  return part;
}

/** A plain-text document from a string (UTF-8, `text/plain`). */
export function textDocument(text: string, options: Pick<DocumentOptions, 'name'> = {}): Part {
  return documentData('text/plain', new TextEncoder().encode(text), options);
}

/** An audio part carrying inline bytes: `audioData('audio/wav', bytes)`. */
export function audioData(mediaType: string, data: Uint8Array): Part {
  return { kind: 'audio', data, mediaType };
}

/** An audio part by URL (`https:`, `gs://`, `s3://`); the media type helps providers that need it. */
export function audioUrl(url: string, mediaType?: string): Part {
  return mediaType === undefined ? { kind: 'audio', url } : { kind: 'audio', url, mediaType };
}

const KINDS: readonly string[] = ['image', 'document', 'audio'];

/**
 * Returns why `part` is invalid, or `undefined` when it is valid. Checks, in order: the kind; url
 * and data both set, neither set; data without a media type; a media type of the wrong family
 * (images: `image/…`; documents and audio: one of `DOCUMENT_MEDIA_TYPES` / `AUDIO_MEDIA_TYPES`);
 * a document or audio URL that is not absolute; inline bytes over `MAX_PART_BYTES`; a `name`
 * that is not a non-empty string.
 */
export function partProblem(part: Part): string | undefined {
  const kind = part.kind as string;
  if (!KINDS.includes(kind)) return `unsupported part kind "${kind}"`;
  const hasUrl = part.url !== undefined && part.url !== '';
  const hasData = part.data !== undefined && part.data.length > 0;
  if (hasUrl && hasData) return `${kind} part has both url and data; set exactly one`;
  if (!hasUrl && !hasData) return `${kind} part has neither url nor data; set exactly one`;
  const hasType = part.mediaType !== undefined && part.mediaType !== '';
  if (hasData && !hasType) return `${kind} part with data needs a media type`;
  if (hasType) {
    const problem = mediaTypeProblem(part.kind, part.mediaType as string);
    if (problem !== undefined) return problem;
  }
  if (hasUrl && kind !== 'image' && !isAbsoluteUrl(part.url as string))
    return `${kind} part url must be an absolute URL (https://…, gs://…, s3://…)`;
  if (hasData && (part.data as Uint8Array).length > MAX_PART_BYTES)
    return `${kind} part is ${(part.data as Uint8Array).length} bytes; the limit is ${MAX_PART_BYTES} (50 MiB): send larger files by URL`;
  if (part.name !== undefined && (typeof part.name !== 'string' || part.name.trim() === ''))
    return `${kind} part name must be a non-empty string`;
  return undefined;
}

function mediaTypeProblem(kind: PartKind, mediaType: string): string | undefined {
  if (typeof mediaType !== 'string') return `${kind} part media type must be a string`;
  const essence = mediaEssence(mediaType);
  if (kind === 'image')
    return essence.startsWith('image/')
      ? undefined
      : `image part media type "${mediaType}" is not an image type (image/png, image/jpeg…)`;
  const allowed = kind === 'document' ? DOCUMENT_MEDIA_TYPES : AUDIO_MEDIA_TYPES;
  if (allowed.includes(essence)) return undefined;
  return `${kind} part media type "${mediaType}" is not supported; use one of ${allowed.join(', ')}`;
}
