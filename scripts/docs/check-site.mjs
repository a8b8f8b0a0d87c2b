// @ts-check
/**
 * Checks the built docs site (`npm run docs` writes docs-site/):
 *
 * - its search index (`<site>/assets/search.js`): for every page of `golemNavigation` (guides,
 *   ADRs, example READMEs), a word of the page's text that is in neither its title nor an API
 *   name — the one fewest pages use — is searched for as the site's search box does (`*word*`,
 *   the top 10 shown), and the page must be among the results. TypeDoc indexes the text of
 *   documents only with `searchInDocuments` (typedoc.json); without it, searching finds titles and
 *   API names alone;
 * - its index page shows its title once: README.md's own `# ` heading, no second `<h1>` from
 *   TypeDoc (`headings.readme: false` in typedoc.json).
 *
 * Usage, after `npm run docs`: `node scripts/docs/check-site.mjs [site directory, default
 * docs-site]`. Exits 1 naming every problem.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import ts from 'typescript';
import { codeBlocks } from './markdown.mjs';
import { documentUrl, firstHeading } from './typedoc-plugin.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** How many results the site's search box shows. */
export const SHOWN = 10;

/**
 * @typedef {object} SearchRow
 * @property {number} kind
 * @property {string} name
 * @property {string} url
 * @property {string} [parent]
 * @property {string} [classes]
 */

/**
 * @typedef {object} SiteSearch
 * @property {SearchRow[]} rows
 * @property {{ search(query: string): { ref: string; score: number }[] }} index a lunr index
 */

/**
 * The search data of a built site: `window.searchData`, base64 of deflated JSON `{ rows, index }`
 * (TypeDoc 0.28), with the lunr index loaded.
 * @param {string} siteDir
 * @returns {SiteSearch}
 */
export function readSiteSearch(siteDir) {
  const file = join(siteDir, 'assets', 'search.js');
  const match = /window\.searchData = "([^"]*)"/.exec(readFileSync(file, 'utf8'));
  if (match === null) throw new Error(`${file} has no window.searchData`);
  const data = JSON.parse(inflateSync(Buffer.from(match[1] ?? '', 'base64')).toString('utf8'));
  const lunr = createRequire(createRequire(join(root, 'package.json')).resolve('typedoc'))('lunr');
  return { rows: data.rows, index: lunr.Index.load(data.index) };
}

/**
 * The URLs the site's search box shows for `text`, best first: each word as `*word*`, a name
 * starting with the text ranked up, the first {@link SHOWN} (TypeDoc 0.28's static/main.js).
 * @param {SiteSearch} search
 * @param {string} text
 * @returns {string[]}
 */
export function searchLikeTheSite(search, text) {
  const query = text
    .trim()
    .split(' ')
    .map((word) => (word.length > 0 ? `*${word}*` : ''))
    .join(' ');
  return search.index
    .search(query)
    .map(({ ref, score }) => {
      const row = /** @type {SearchRow} */ (search.rows[Number(ref)]);
      const starts = row.name.toLowerCase().startsWith(text.toLowerCase());
      return {
        url: row.url,
        score: starts ? score * (10 / (1 + Math.abs(row.name.length - text.length))) : score,
      };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, SHOWN)
    .map((result) => result.url);
}

/**
 * The words (6 letters or more, lower case) of a Markdown page's prose: without its `# ` title,
 * fenced code, inline code and link targets.
 * @param {string} text
 */
export function proseWords(text) {
  let prose = text;
  for (const block of codeBlocks(text)) prose = prose.replace(block.code, ' ');
  prose = prose
    .replace(/^# .*$/m, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/<[^>]+>/g, ' ');
  return prose.toLowerCase().match(/[a-z]{6,}/g) ?? [];
}

/**
 * For each page, the word to search for: one of its prose words in neither its title nor any of
 * `names` (the API's names, which rank first), used by the fewest pages (counting their code too;
 * the first such word on the page).
 * @param {{ file: string; title: string; text: string }[]} pages
 * @param {readonly string[]} [names]
 * @returns {Map<string, string | undefined>} file → word (undefined: no usable word)
 */
export function distinctiveWords(pages, names = []) {
  const lowerNames = names.map((name) => name.toLowerCase());
  /** @type {Map<string, boolean>} */
  const inNames = new Map();
  const isName = (/** @type {string} */ word) => {
    if (!inNames.has(word))
      inNames.set(
        word,
        lowerNames.some((name) => name.includes(word)),
      );
    return inNames.get(word) === true;
  };
  /** @type {Map<string, number>} */
  const pagesUsing = new Map();
  for (const page of pages)
    for (const word of new Set(page.text.toLowerCase().match(/[a-z]{6,}/g) ?? []))
      pagesUsing.set(word, (pagesUsing.get(word) ?? 0) + 1);
  return new Map(
    pages.map((page) => {
      const title = page.title.toLowerCase();
      let best;
      for (const word of proseWords(page.text)) {
        if (title.includes(word) || isName(word)) continue;
        const uses = pagesUsing.get(word) ?? 0;
        if (best === undefined || uses < best.uses) best = { word, uses };
      }
      return [page.file, best?.word];
    }),
  );
}

/**
 * The pages of the site's navigation, with their titles as the site shows them.
 * @returns {{ file: string; title: string; text: string; url: string }[]}
 */
export function navigationPages() {
  const configFile = join(root, 'typedoc.json');
  const parsed = ts.parseConfigFileTextToJson(configFile, readFileSync(configFile, 'utf8'));
  if (parsed.error) throw new Error(`typedoc.json: ${String(parsed.error.messageText)}`);
  /** @type {{ title: string; titles?: string; documents: string[] }[]} */
  const sections = parsed.config.golemNavigation ?? [];
  return sections.flatMap((section) =>
    section.documents.map((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const title =
        section.titles === 'folder' ? (file.split('/').at(-2) ?? '') : (firstHeading(text) ?? file);
      return { file, title, text, url: `${documentUrl(file)}.html` };
    }),
  );
}

/**
 * The problems of a built site's search: pages their distinctive word does not find.
 * @param {string} siteDir
 * @param {{ file: string; title: string; text: string; url: string }[]} [pages] default: every
 *   page of the navigation
 * @returns {string[]}
 */
export function searchProblems(siteDir, pages = navigationPages()) {
  const search = readSiteSearch(siteDir);
  const words = distinctiveWords(
    pages,
    search.rows.map((row) => row.name),
  );
  const problems = [];
  for (const page of pages) {
    const word = words.get(page.file);
    if (word === undefined) {
      problems.push(`${page.file}: no word of its text to search for`);
      continue;
    }
    const shown = searchLikeTheSite(search, word);
    if (!shown.includes(page.url))
      problems.push(
        `${page.file}: searching "${word}" (in its text) does not show ${page.url}; shown: ${shown.join(', ') || 'nothing'}`,
      );
  }
  return problems;
}

/**
 * The problems of a built site's index page: it must have exactly one `<h1>`.
 * @param {string} siteDir
 * @returns {string[]}
 */
export function indexPageProblems(siteDir) {
  const html = readFileSync(join(siteDir, 'index.html'), 'utf8');
  const titles = [...html.matchAll(/<h1\b[^>]*>(.*?)<\/h1>/gs)].map((m) =>
    (m[1] ?? '').replace(/<[^>]+>/g, '').trim(),
  );
  return titles.length === 1
    ? []
    : [`index.html: ${titles.length} <h1> titles (${titles.join(' | ')}), expected one`];
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const siteDir = resolve(process.argv[2] ?? join(root, 'docs-site'));
  if (!existsSync(join(siteDir, 'assets', 'search.js'))) {
    console.error(`${siteDir} has no assets/search.js: run \`npm run docs\` first`);
    process.exit(1);
  }
  const problems = [...indexPageProblems(siteDir), ...searchProblems(siteDir)];
  if (problems.length > 0) {
    console.error(`the docs site:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    `docs site: one title on the index page; search finds every page's text (${navigationPages().length} pages)`,
  );
}
