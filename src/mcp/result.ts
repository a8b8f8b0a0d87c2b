import { isRecord } from '../core/kit/guards';

/** Untrusted short text (a MIME type, a URI) made safe for one summary line. */
function label(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || value === '') return fallback;
  // eslint-disable-next-line no-control-regex -- control characters would break the summary line
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

/** Decoded size of base64 text, without decoding it. */
function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const trimmed = data.replace(/\s/g, '');
  const padding = trimmed.endsWith('==') ? 2 : trimmed.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((trimmed.length * 3) / 4) - padding);
}

/** One content item as text: text verbatim, everything else summarised on one line. */
function renderItem(item: unknown): string {
  if (!isRecord(item)) return '[mcp: unsupported content]';
  switch (item.type) {
    case 'text':
      return typeof item.text === 'string' ? item.text : '';
    case 'image':
    case 'audio':
      return `[${item.type}: ${label(item.mimeType, 'unknown type')}, ${base64Bytes(item.data)} bytes]`;
    case 'resource': {
      const resource = isRecord(item.resource) ? item.resource : {};
      const size =
        typeof resource.text === 'string'
          ? Buffer.byteLength(resource.text)
          : base64Bytes(resource.blob);
      return `[resource: ${label(resource.uri, 'no uri')}, ${label(resource.mimeType, 'unknown type')}, ${size} bytes]`;
    }
    case 'resource_link':
      return `[resource link: ${label(item.uri, 'no uri')}]`;
    default:
      return `[mcp: unsupported ${label(item.type, 'unknown')} content]`;
  }
}

/**
 * The text of a `tools/call` result: items joined with `\n` — text verbatim, images and audio as
 * `[image: <mime>, <N> bytes]`, embedded resources as `[resource: <uri>, <mime>, <N> bytes]`,
 * links as `[resource link: <uri>]`. With no content, the structured content as JSON.
 */
export function renderContent(result: object): string {
  const { content, structuredContent } = result as {
    content?: unknown;
    structuredContent?: unknown;
  };
  const items: unknown[] = Array.isArray(content) ? (content as unknown[]) : [];
  if (items.length === 0 && structuredContent !== undefined) {
    const json = JSON.stringify(structuredContent) as string | undefined;
    return json ?? '';
  }
  return items.map(renderItem).join('\n');
}

/**
 * `text` cut to at most `maxBytes` bytes of UTF-8 (never inside a character), with the marker
 * `\n\n[mcp: result truncated at N bytes]`.
 */
export function capText(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString('utf8')}\n\n[mcp: result truncated at ${maxBytes} bytes]`;
}
