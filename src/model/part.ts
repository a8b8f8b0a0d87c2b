/** The only part kind today; the union grows additively. */
export type PartKind = 'image';

/** Non-text content of a user message: an image by URL or by inline bytes. */
export interface Part {
  kind: PartKind;
  /** Image URL; exclusive with `data`. */
  url?: string;
  /** Inline bytes; exclusive with `url`; requires `mediaType`. Application-owned, not copied. */
  data?: Uint8Array;
  /** IANA media type of `data`, e.g. `image/png`. */
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

/**
 * Returns why `part` is invalid, or `undefined` when it is valid. Checks, in order: the kind,
 * url and data both set, neither set, data without a media type.
 */
export function partProblem(part: Part): string | undefined {
  if ((part.kind as string) !== 'image') return `unsupported part kind "${part.kind as string}"`;
  const hasUrl = part.url !== undefined && part.url !== '';
  const hasData = part.data !== undefined && part.data.length > 0;
  if (hasUrl && hasData) return 'image part has both url and data; set exactly one';
  if (!hasUrl && !hasData) return 'image part has neither url nor data; set exactly one';
  if (hasData && (part.mediaType === undefined || part.mediaType === ''))
    return 'image part with data needs a media type';
  return undefined;
}
