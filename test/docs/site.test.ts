/**
 * The docs site (typedoc.json): its index page shows its title once (README.md's own heading, not
 * TypeDoc's too), and its search finds the guides' text, not only titles and API names
 * (`searchInDocuments`). scripts/docs/check-site.mjs, run on the built site after `npm run docs`,
 * checks both on the real pages; its search check reads TypeDoc's index and fails when a page's
 * own words do not find it.
 * Building the site takes about a minute, so here the checker runs on small indexes built the way
 * TypeDoc 0.28 builds its own (lunr, fields `name`/`comment`/`document`, deflated base64 JSON):
 * one with the pages' text, which passes, and one without, which fails naming every page.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';

const root = join(__dirname, '..', '..');

// The checker's process loads TypeScript, TypeDoc and lunr: a few seconds on a busy machine.
jest.setTimeout(30_000);

function typedocConfig(): Record<string, unknown> {
  const file = join(root, 'typedoc.json');
  const parsed = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'));
  expect(parsed.error).toBeUndefined();
  return parsed.config as Record<string, unknown>;
}

test('typedoc.json indexes the text of the documents for search', () => {
  expect(typedocConfig().searchInDocuments).toBe(true);
});

test("the index page's title is README.md's heading alone, as the documents' are theirs", () => {
  const config = typedocConfig();
  expect(config.readme).toBe('README.md');
  expect(readFileSync(join(root, 'README.md'), 'utf8')).toMatch(/^# \S/);
  expect(config.headings).toEqual({ readme: false, document: false });
});

/** Builds the two indexes and runs the checker on them; prints `{ withText, withoutText }`. */
const SCRIPT = `
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { indexPageProblems, navigationPages, searchProblems } from ${JSON.stringify(join(root, 'scripts/docs/check-site.mjs'))};
const lunr = createRequire(createRequire(${JSON.stringify(join(root, 'package.json'))}).resolve('typedoc'))('lunr');
const all = navigationPages();
// a guide, the getting-started guide, an ADR and an example's README
const pages = [
  all.find((p) => p.file === 'docs/guides/testing.md'),
  all.find((p) => p.file === 'docs/guides/getting-started.md'),
  all.find((p) => p.file.startsWith('docs/adr/')),
  all.find((p) => p.file.startsWith('examples/')),
];
const api = [{ name: 'Agent', comment: 'An agent: a model, instructions and tools.' }];
function site(dir, withText) {
  const builder = new lunr.Builder();
  builder.pipeline.add(lunr.trimmer);
  builder.ref('id');
  for (const [field, boost] of Object.entries({ name: 10, comment: 1, document: 1 }))
    builder.field(field, { boost });
  const rows = [];
  for (const entry of api) {
    builder.add({ name: entry.name, comment: undefined, document: undefined, id: rows.length }, { boost: 1 });
    rows.push({ kind: 128, name: entry.name, url: 'classes/golem_core.' + entry.name + '.html' });
  }
  for (const page of pages) {
    builder.add({ name: page.title, comment: undefined, document: withText ? page.text : undefined, id: rows.length }, { boost: 1 });
    rows.push({ kind: 8388608, name: page.title, url: page.url });
  }
  const data = { rows, index: builder.build() };
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'assets', 'search.js'),
    'window.searchData = "' + deflateSync(Buffer.from(JSON.stringify(data))).toString('base64') + '";');
  return searchProblems(dir, pages);
}
function index(dir, html) {
  writeFileSync(join(dir, 'index.html'), html);
  return indexPageProblems(dir);
}
const tmp = process.argv[1];
const title = '<h1 id="golem">Golem<a href="#golem" class="tsd-anchor-icon"><svg></svg></a></h1>';
console.log(JSON.stringify({
  pages: pages.map((p) => p.file),
  withText: site(join(tmp, 'with'), true),
  withoutText: site(join(tmp, 'without'), false),
  oneTitle: index(join(tmp, 'with'), '<div class="tsd-page-title"></div>' + title),
  twoTitles: index(join(tmp, 'without'), '<div class="tsd-page-title"><h1>Golem</h1></div>' + title),
}));
`;

test("the checker finds each page by a word of its text, and fails on an index without the pages' text or an index page with two titles", () => {
  const tmp = mkdtempSync(join(tmpdir(), 'golem-search-'));
  try {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT, tmp], {
      encoding: 'utf8',
      cwd: root,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const result = JSON.parse(run.stdout) as {
      pages: string[];
      withText: string[];
      withoutText: string[];
      oneTitle: string[];
      twoTitles: string[];
    };
    expect([result.oneTitle, result.twoTitles]).toEqual([
      [],
      ['index.html: 2 <h1> titles (Golem | Golem), expected one'],
    ]);
    expect(result.pages).toHaveLength(4);
    expect(result.withText).toEqual([]);
    expect(result.withoutText).toHaveLength(4);
    result.pages.forEach((page, i) => {
      expect(result.withoutText[i]).toMatch(
        new RegExp(`^${page}: searching "[a-z]+" \\(in its text\\) does not show`),
      );
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
