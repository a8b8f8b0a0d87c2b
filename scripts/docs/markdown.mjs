// @ts-check
/**
 * Small Markdown helpers shared by the documentation checks: fenced code blocks, links and
 * heading anchors (GitHub's and TypeDoc's), without a Markdown dependency.
 */

/**
 * @typedef {object} CodeBlock
 * @property {string} info the fence's info string (`ts`, `ts no-check`, `sh`, ...)
 * @property {string} code the block's text, indentation of the fence removed
 * @property {number} line 1-based line of the block's first code line in the file
 */

/**
 * The fenced code blocks of a Markdown text (``` and ~~~ fences, possibly indented).
 * @param {string} text
 * @returns {CodeBlock[]}
 */
export function codeBlocks(text) {
  const lines = text.split('\n');
  /** @type {CodeBlock[]} */
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const fence = open[2] ?? '```';
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] ?? '';
      const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      if (close.test(line)) break;
      body.push(line.slice(Math.min(indent, line.length - line.trimStart().length)));
    }
    blocks.push({ info: (open[3] ?? '').trim(), code: body.join('\n'), line: i + 2 });
    i = j;
  }
  return blocks;
}

/**
 * The text with fenced code blocks and inline code spans blanked out (same line numbers), so
 * links are only found in prose.
 * @param {string} text
 */
export function prose(text) {
  const lines = text.split('\n');
  for (const block of codeBlocks(text)) {
    const count = block.code === '' ? 0 : block.code.split('\n').length;
    for (let k = block.line - 1; k < block.line - 1 + count; k++) lines[k] = '';
  }
  // A code span: a run of n backticks, then text up to the next run of exactly n backticks
  // (within one paragraph).
  return lines
    .join('\n')
    .replace(/(?<!`)(`+)(?!`)(?:(?!\n\s*\n)[\s\S])*?(?<!`)\1(?!`)/g, (span) =>
      span.replace(/[^\n]/g, ' '),
    );
}

/**
 * @typedef {object} Link
 * @property {string} target the link destination as written
 * @property {number} line 1-based line in the file
 */

/**
 * Inline links, images and reference definitions of a Markdown text, outside code.
 * @param {string} text
 * @returns {Link[]}
 */
export function links(text) {
  const clean = prose(text);
  /** @type {Link[]} */
  const found = [];
  const lineOf = (/** @type {number} */ index) => clean.slice(0, index).split('\n').length;
  for (const match of clean.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    found.push({ target: match[1] ?? '', line: lineOf(match.index) });
  }
  for (const match of clean.matchAll(/^ {0,3}\[[^\]^]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) {
    found.push({ target: match[1] ?? '', line: lineOf(match.index) });
  }
  return found;
}

/**
 * The headings' plain text (ATX headings outside code), in order: inline code kept without its
 * backticks, links reduced to their text, emphasis markers dropped.
 * @param {string} text
 */
export function headings(text) {
  const lines = text.split('\n');
  const inCode = new Set();
  for (const block of codeBlocks(text)) {
    for (let k = block.line - 2; k <= block.line - 1 + block.code.split('\n').length; k++) {
      inCode.add(k);
    }
  }
  /** @type {string[]} */
  const result = [];
  lines.forEach((line, index) => {
    if (inCode.has(index)) return;
    const match = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) return;
    const raw = match[1] ?? '';
    const plain = raw
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .split(/(`+[^`]*`+)/)
      .map((part) =>
        part.startsWith('`')
          ? part.replace(/^`+|`+$/g, '')
          : part.replace(/(\*\*|__|\*|\b_|_\b)/g, '').replace(/<[^>]+>/g, ''),
      )
      .join('');
    result.push(plain);
  });
  return result;
}

/**
 * Anchors set explicitly with HTML (`<a id="limits"></a>`), outside code.
 * @param {string} text
 */
export function htmlAnchors(text) {
  return [...prose(text).matchAll(/<a\s[^>]*?\b(?:id|name)="([^"]+)"/g)].map((m) => m[1] ?? '');
}

/**
 * Anchors GitHub gives a document's headings (github-slugger): lower case, punctuation other
 * than `-` and `_` removed, each space a hyphen, duplicates suffixed `-1`, `-2`, ...
 * @param {string[]} titles
 */
export function githubAnchors(titles) {
  return uniqueSlugs(titles, (title) =>
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-'),
  );
}

/**
 * Anchors TypeDoc gives the same headings on the site (its Slugger, with inline code counted as
 * text by scripts/docs/typedoc-plugin.mjs).
 * @param {string[]} titles
 */
export function typedocAnchors(titles) {
  return uniqueSlugs(titles, (title) => {
    const slug = title
      .trim()
      .replace(/[\u2000-\u206F\u2E00-\u2E7F\\'!"#$%&()*+,./:;<=>?@[\]^`{|}~]/g, '')
      .replace(/\s/g, '-')
      .replace(/--+/, '-');
    return (slug || '_').toLocaleLowerCase();
  });
}

/**
 * @param {string[]} titles
 * @param {(title: string) => string} slugify
 */
function uniqueSlugs(titles, slugify) {
  const seen = new Map();
  return titles.map((title) => {
    const base = slugify(title);
    let slug = base;
    if (seen.has(base)) {
      let count = seen.get(base);
      do {
        count++;
        slug = `${base}-${count}`;
      } while (seen.has(slug));
      seen.set(base, count);
    } else {
      seen.set(base, 0);
    }
    return slug;
  });
}
