/**
 * A guard in front of the HTML converter. html-to-text's parser (htmlparser2) keeps its open
 * elements in an array it shifts and unshifts, so deeply nested markup costs time quadratic in
 * the depth: 1 MiB of `<div>` blocks the event loop for tens of seconds. The guard estimates the
 * nesting with a linear scan and cuts the document where it passes {@link MAX_NESTING}; it is a
 * bound, not a parser — the conversion itself is the library's.
 */

/** Deepest estimated nesting converted; legitimate pages stay far below it. */
export const MAX_NESTING = 512;

/** Elements that never hold children. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Elements the parser closes implicitly when a sibling opens (their end tag is optional). */
const IMPLIED_END = new Set([
  'p',
  'li',
  'dt',
  'dd',
  'tr',
  'td',
  'th',
  'option',
  'optgroup',
  'rt',
  'rp',
  'thead',
  'tbody',
  'tfoot',
  'html',
  'head',
  'body',
]);
/** Elements whose contents are raw text up to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noembed', 'noframes']);

/**
 * The index of the tag at which the estimated nesting first exceeds `limit`, or `undefined`
 * when it never does. Comments and raw-text elements (scripts, styles…) are skipped.
 */
export function nestingCutIndex(html: string, limit = MAX_NESTING): number | undefined {
  const token = /<!--|<(\/?)([A-Za-z][A-Za-z0-9-]*)/g;
  let depth = 0;
  for (let m = token.exec(html); m !== null; m = token.exec(html)) {
    if (m[0] === '<!--') {
      const end = html.indexOf('-->', token.lastIndex);
      if (end === -1) return undefined;
      token.lastIndex = end + 3;
      continue;
    }
    const name = (m[2] ?? '').toLowerCase();
    const closing = m[1] === '/';
    if (!closing && RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}`, 'gi');
      close.lastIndex = token.lastIndex;
      if (close.exec(html) === null) return undefined;
      token.lastIndex = close.lastIndex;
      continue;
    }
    if (VOID.has(name) || IMPLIED_END.has(name)) continue;
    if (closing) depth = Math.max(0, depth - 1);
    else if (++depth > limit) return m.index;
  }
  return undefined;
}
