/** Media types returned besides any `text/*` (spec §26.1). */
const ACCEPTED = new Set([
  'application/json',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/xhtml+xml',
]);

/** The value the tool sends as `Accept` (callers may override it through `headers`). */
export const ACCEPT =
  'text/html, application/xhtml+xml, text/plain, application/json, application/xml, application/yaml, text/*;q=0.9';

/** The media type of a `Content-Type` value: lower-cased, parameters dropped; `""` when missing. */
export function mediaType(header: string | undefined): string {
  if (header === undefined) return '';
  return (header.split(';')[0] ?? '').trim().toLowerCase();
}

/** Whether the tool returns bodies of `type` (no sniffing: the header decides). */
export function isAcceptedType(type: string): boolean {
  return (type.startsWith('text/') && type.length > 5) || ACCEPTED.has(type);
}

/** Whether bodies of `type` are converted from HTML to text. */
export function isHtmlType(type: string): boolean {
  return type === 'text/html' || type === 'application/xhtml+xml';
}
