/**
 * Escaping for the HTML report. Everything a report holds — case names, inputs, model output,
 * tool arguments, reasons, error messages — is untrusted text: it goes into the page only through
 * {@link escapeHtml}, which is safe in element content and in double- or single-quoted
 * attribute values alike.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Longest text shown in one block; the rest is counted, not shown. */
export const MAX_BLOCK_CHARS = 100_000;

/** `text` with `& < > " ' \`` as entities: safe as element content and as a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c);
}

/**
 * A value as display text: strings as they are, anything else as indented JSON (`undefined` as
 * empty), cut at {@link MAX_BLOCK_CHARS} with a note of what was left out; then escaped.
 */
export function escapeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '';
  else {
    try {
      text = JSON.stringify(value, null, 2);
    } catch {
      text = '[a value that is not JSON]';
    }
  }
  if (text.length <= MAX_BLOCK_CHARS) return escapeHtml(text);
  const rest = text.length - MAX_BLOCK_CHARS;
  return `${escapeHtml(text.slice(0, MAX_BLOCK_CHARS))}\n… (${String(rest)} more characters)`;
}
