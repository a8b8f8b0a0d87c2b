/**
 * Lone surrogates in JSON text. A UTF-16 surrogate without its pair (U+D800–U+DFFF alone) is a
 * legal JSON string character, but UTF-8 cannot encode it: writing it to a file, a socket or a
 * database turns it into U+FFFD. Written as a `\uXXXX` escape it is plain ASCII and parses to the
 * same value, so durable JSON carries lone surrogates escaped.
 */

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `text` with every lone surrogate code unit written as its lowercase `\uXXXX` escape, as
 * `JSON.stringify` writes them; everything else is kept as written. For JSON text only (there a
 * lone surrogate can only stand inside a string, where the escape means the same code unit), the
 * result parses to the same value and survives a UTF-8 round trip. Returns `text` itself when it
 * has none.
 */
export function escapeLoneSurrogates(text: string): string {
  LONE_SURROGATE.lastIndex = 0;
  if (!LONE_SURROGATE.test(text)) return text;
  return text.replace(LONE_SURROGATE, (unit) => `\\u${unit.charCodeAt(0).toString(16)}`);
}
