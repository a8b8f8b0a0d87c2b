#!/usr/bin/env node
// @ts-check
/**
 * Checks the documentation before TypeDoc builds the site (`npm run docs`); exits 1 on a problem.
 *
 * Links: every relative link in README.md, the community files, the guides, the ADRs and the
 * examples' READMEs must point at an existing file or folder, and a `#anchor` at a heading of
 * the target (GitHub's anchors). Pages of the site must also keep working there: a folder they
 * link needs a README.md page, a Markdown file they link must be a page of the site, and an
 * anchor must be the same on the site as on GitHub.
 *
 * Reachability: every guide (docs/guides/**\/*.md), ADR and example folder has a page in the
 * navigation (`golemNavigation` in typedoc.json), and the indexes link them: README.md links
 * every guide, ADR and example folder, docs/guides/README.md every guide. Every example folder
 * has a README.md with at least one paragraph.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { githubAnchors, headings, htmlAnchors, links, typedocAnchors } from './markdown.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** @param {string} file */
const rel = (file) => relative(root, file).split(sep).join('/');
/** @param {string} path */
const isDirectory = (path) => existsSync(path) && statSync(path).isDirectory();

/** @type {string[]} */
const problems = [];
/** @param {string} file @param {number} line @param {string} message */
const report = (file, line, message) => problems.push(`${rel(file)}:${line}: ${message}`);

/** Markdown files under a folder, recursively. @param {string} dir @returns {string[]} */
function markdownFiles(dir) {
  if (!isDirectory(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

// The navigation, from typedoc.json (JSON with comments).
const configFile = join(root, 'typedoc.json');
const parsed = ts.parseConfigFileTextToJson(configFile, readFileSync(configFile, 'utf8'));
if (parsed.error) {
  console.error(`typedoc.json: ${ts.flattenDiagnosticMessageText(parsed.error.messageText, '\n')}`);
  process.exit(1);
}
/** @type {{ title: string, documents: string[] }[]} */
const navigation = parsed.config.golemNavigation ?? [];
const sitePages = new Set(navigation.flatMap((s) => s.documents.map((d) => resolve(root, d))));
const readme = join(root, 'README.md');
sitePages.add(readme); // the site's index page

const guides = markdownFiles(join(root, 'docs', 'guides'));
const adrs = markdownFiles(join(root, 'docs', 'adr'));
const exampleFolders = readdirSync(join(root, 'examples'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(root, 'examples', entry.name));
const exampleReadmes = exampleFolders
  .map((folder) => join(folder, 'README.md'))
  .filter((file) => existsSync(file));
const community = ['CONTRIBUTING.md', 'SECURITY.md', 'CODE_OF_CONDUCT.md', 'CHANGELOG.md']
  .map((name) => join(root, name))
  .filter((file) => existsSync(file));
const checked = [
  ...new Set([readme, ...community, ...guides, ...adrs, ...exampleReadmes, ...sitePages]),
];

/** @type {Map<string, string>} */
const texts = new Map();
/** @param {string} file */
const textOf = (file) => {
  let text = texts.get(file);
  if (text === undefined) {
    text = readFileSync(file, 'utf8');
    texts.set(file, text);
  }
  return text;
};

/** Resolved relative links of each checked file: file or folder paths, anchors removed. */
/** @type {Map<string, Set<string>>} */
const linkedFrom = new Map();

for (const file of checked) {
  if (!existsSync(file)) {
    report(configFile, 1, `golemNavigation lists ${rel(file)}, which does not exist`);
    continue;
  }
  const onSite = sitePages.has(file);
  const targets = new Set();
  linkedFrom.set(file, targets);
  for (const { target, line } of links(textOf(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
    if (target.startsWith('/')) {
      report(file, line, `${target}: use a relative link`);
      continue;
    }
    const hash = target.indexOf('#');
    const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const resolved = pathPart === '' ? file : resolve(dirname(file), pathPart);
    if (!existsSync(resolved)) {
      report(file, line, `${target}: ${rel(resolved)} does not exist`);
      continue;
    }
    targets.add(resolved);
    if (isDirectory(resolved)) {
      if (onSite && !sitePages.has(join(resolved, 'README.md'))) {
        report(
          file,
          line,
          `${target}: the site has no page for this folder (add its README.md to golemNavigation)`,
        );
      }
      if (anchor !== undefined) report(file, line, `${target}: an anchor on a folder link`);
      continue;
    }
    if (onSite && resolved.endsWith('.md') && !sitePages.has(resolved)) {
      report(file, line, `${target}: ${rel(resolved)} is not a page of the site (golemNavigation)`);
    }
    if (anchor === undefined || anchor === '') continue;
    if (!resolved.endsWith('.md')) {
      report(file, line, `${target}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (htmlAnchors(textOf(resolved)).includes(anchor)) continue; // <a id="..."> works on both
    const titles = headings(textOf(resolved));
    const github = githubAnchors(titles);
    const index = github.indexOf(anchor);
    if (index === -1) {
      report(file, line, `${target}: no heading of ${rel(resolved)} has the anchor #${anchor}`);
    } else if (onSite && sitePages.has(resolved) && typedocAnchors(titles)[index] !== anchor) {
      report(
        file,
        line,
        `${target}: the heading "${titles[index] ?? ''}" gets the anchor #${typedocAnchors(titles)[index] ?? ''} on the site; reword the heading`,
      );
    }
  }
}

// Reachability: the navigation and the indexes.
const guidesIndex = join(root, 'docs', 'guides', 'README.md');
for (const guide of [...guides, ...adrs]) {
  if (!sitePages.has(guide)) {
    report(configFile, 1, `${rel(guide)} is not in golemNavigation: no page of the site links it`);
  }
}
for (const guide of guides.filter((g) => g !== guidesIndex)) {
  if (!linkedFrom.get(readme)?.has(guide)) {
    report(readme, 1, `the Guides index does not link ${rel(guide)}`);
  }
  if (!linkedFrom.get(guidesIndex)?.has(guide)) {
    report(guidesIndex, 1, `the guides index does not link ${rel(guide)}`);
  }
}
for (const adr of adrs) {
  if (!linkedFrom.get(readme)?.has(adr)) {
    report(readme, 1, `the Design decisions index does not link ${rel(adr)}`);
  }
}
for (const folder of exampleFolders) {
  const exampleReadme = join(folder, 'README.md');
  if (!existsSync(exampleReadme)) {
    report(folder, 1, 'an example folder needs a README.md (a paragraph on what it shows)');
    continue;
  }
  const paragraph = textOf(exampleReadme)
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .some((block) => !/^(#|\||```|~~~|>|[-*+] |\d+\. )/.test(block) && block.length > 40);
  if (!paragraph) report(exampleReadme, 1, 'needs a paragraph saying what the example shows');
  if (!sitePages.has(exampleReadme)) {
    report(configFile, 1, `${rel(exampleReadme)} is not in golemNavigation`);
  }
  if (!linkedFrom.get(readme)?.has(folder)) {
    report(readme, 1, `the Examples index does not link ${rel(folder)}/`);
  }
}

if (problems.length > 0) {
  console.error(`docs: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `docs: ${checked.length} Markdown files, their links and anchors, and the navigation are consistent`,
);
