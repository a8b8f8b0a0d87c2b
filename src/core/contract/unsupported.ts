import { GolemError, brandGuard } from '../kit/error-base';
import type { HostedTool } from './hosted-tool';
import type { Part } from './part';

/**
 * Where a refused part sits in the request.
 * @inline
 */
export interface PartLocation {
  /** Index of the message in the request. */
  readonly message: number;
  /** Index of the part in the message's `parts`. */
  readonly part: number;
}

/**
 * A provider adapter cannot send a part (a document type, audio, a URL where the API takes only
 * bytes, a file over the provider's size limit). Thrown before anything is sent; not retryable. A
 * `FallbackModel` with `shouldFallback: (e) => UnsupportedPartError.is(e) || isRetryable(e)`
 * moves on to a model that takes it.
 */
export class UnsupportedPartError extends GolemError {
  readonly retryable = false;
  /** The adapter's provider id (`anthropic`, `openai`, `bedrock`…). */
  readonly provider: string;
  /** The refused part's kind. */
  readonly partKind: string;
  /** The refused part's media type, when it has one. */
  readonly mediaType: string | undefined;
  /** Where the part is. */
  readonly location: PartLocation;
  /** Why it cannot be sent, and what to do instead. */
  readonly reason: string;

  constructor(provider: string, part: Part, location: PartLocation, reason: string) {
    super(
      'UnsupportedPartError',
      `${provider}: cannot send message ${location.message} part ${location.part} (${describePart(part)}): ${reason}`,
    );
    this.provider = provider;
    this.partKind = part.kind;
    this.mediaType =
      part.mediaType === undefined || part.mediaType === '' ? undefined : part.mediaType;
    this.location = location;
    this.reason = reason;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UnsupportedPartError>('UnsupportedPartError');
}

/**
 * A provider adapter cannot offer a provider-hosted tool (a provider without that server tool, or
 * without server tools at all). Thrown before anything is sent; not retryable.
 */
export class UnsupportedHostedToolError extends GolemError {
  readonly retryable = false;
  /** The adapter's provider id. */
  readonly provider: string;
  /** The refused tool's type (`web_search`, `file_search`, `code_interpreter`). */
  readonly toolType: string;
  /** Why, and what to do instead. */
  readonly reason: string;

  constructor(provider: string, tool: Pick<HostedTool, 'type'>, reason: string) {
    super(
      'UnsupportedHostedToolError',
      `${provider}: cannot offer the hosted tool "${tool.type}": ${reason}`,
    );
    this.provider = provider;
    this.toolType = tool.type;
    this.reason = reason;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UnsupportedHostedToolError>('UnsupportedHostedToolError');
}

/** A short description of a part for messages: kind, media type, name or URL, size. */
export function describePart(part: Part): string {
  const bits: string[] = [part.kind];
  if (part.mediaType !== undefined && part.mediaType !== '') bits.push(part.mediaType);
  if (part.name !== undefined && part.name !== '') bits.push(JSON.stringify(part.name));
  if (part.data !== undefined && part.data.length > 0) bits.push(`${part.data.length} bytes`);
  else if (part.url !== undefined && part.url !== '') bits.push(shortUrl(part.url));
  return bits.join(', ');
}

/**
 * A URL for messages: a `data:` URL by its type only; others without query string or fragment
 * (a signed URL's token stays out of errors), cut at 80 characters.
 */
function shortUrl(url: string): string {
  if (url.startsWith('data:')) return `${url.slice(0, Math.min(url.indexOf(','), 40) + 1)}…`;
  let shown: string;
  try {
    const parsed = new URL(url);
    shown = `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    shown = url.split(/[?#]/)[0] ?? '';
  }
  return shown.length > 80 ? `${shown.slice(0, 80)}…` : shown;
}
