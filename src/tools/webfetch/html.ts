import { compile, type HtmlToTextOptions, type SelectorDefinition } from 'html-to-text';
import { MAX_NESTING } from './nesting-guard';

/** Tags whose contents are never text for a model. */
const SKIPPED = ['script', 'style', 'template', 'svg'];
/** Cells and rows end lines, like blocks. */
const LINE_BLOCKS = ['table', 'tr', 'th', 'td', 'caption', 'dt', 'dd', 'details', 'summary'];

function options(includeLinks: boolean): HtmlToTextOptions {
  const selectors: SelectorDefinition[] = [
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
      selector,
      options: { uppercase: false },
    })),
    { selector: 'title', format: 'block' },
    { selector: 'a', options: { ignoreHref: !includeLinks, hideLinkHrefIfSameAsText: true } },
    includeLinks ? { selector: 'img', format: 'image' } : { selector: 'img', format: 'altText' },
    ...LINE_BLOCKS.map((selector) => ({ selector, format: 'block' })),
    ...SKIPPED.map((selector) => ({ selector, format: 'skip' })),
  ];
  return {
    wordwrap: false,
    // The whole document: HTML may omit <body>, and the <title> names the page.
    baseElements: { selectors: [] },
    selectors,
    formatters: {
      altText: (elem, _walk, builder) => {
        const alt = (elem as { attribs?: Record<string, string> }).attribs?.alt ?? '';
        if (alt !== '') builder.addInline(alt);
      },
    },
    // The walker recurses per level: deeper content (past the nesting guard's estimate, which
    // may undercount) is replaced by an ellipsis instead of exhausting the stack.
    limits: { maxDepth: 2 * MAX_NESTING },
  };
}

/**
 * A compiled HTML → text converter built on html-to-text: the whole document (title included),
 * headings as
 * written, no word wrapping, link targets and image sources only with `includeLinks` (image alt
 * text otherwise), scripts, styles, comments and markup dropped, entities decoded. Every line is
 * trimmed and empty lines are dropped.
 */
export function htmlConverter(includeLinks: boolean): (html: string) => string {
  const convert = compile(options(includeLinks));
  return (html) =>
    convert(html)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join('\n');
}
