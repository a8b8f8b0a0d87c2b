// @ts-check
/**
 * TypeDoc plugin for the Golem documentation site, loaded by typedoc.json.
 *
 * - `golemNavigation` (typedoc.json) is the site's navigation: sections in the order a newcomer
 *   learns, each a list of Markdown files. The plugin turns it into `projectDocuments` (so the
 *   list lives in one place) and puts every document in its section's group, in list order.
 * - Documents are titled by their first `# ` heading (guides, ADRs) or by their folder name
 *   (example READMEs), and live at URLs taken from their paths (`guides/getting-started.html`,
 *   `guides/providers/openai.html`, `examples/streaming.html`, `adr/0001-test-transformer.html`).
 *   API modules are named by their import path (`golem`, `golem/testing`, ...).
 * - A Markdown link to a folder (`../../examples/streaming/`) goes to that folder's README.md page.
 *   A folder link with no README.md page is a warning, which `treatWarningsAsErrors` makes fatal.
 * - Inline code in headings counts for the heading's anchor, as on GitHub (see below).
 *
 * scripts/docs/check-docs.mjs reads `golemNavigation` too, for its reachability check.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { Application, Converter, KindRouter, ParameterType, ReflectionKind } from 'typedoc';

/** @typedef {{ title: string, documents: string[], titles?: 'heading' | 'folder' }} NavigationSection */

/**
 * The import path of an API module, from TypeDoc's module name (its entry point's folder relative
 * to the repository root: `src`, `src/providers/openai`, `decorators`, ...).
 * @param {string} moduleName
 */
export function importPath(moduleName) {
  if (moduleName === 'src') return 'golem';
  if (moduleName.startsWith('src/')) return `golem/${moduleName.slice('src/'.length)}`;
  return `golem/${moduleName}`;
}

/**
 * The page URL (without extension) of a document, from its path relative to the repository root.
 * @param {string} file
 */
export function documentUrl(file) {
  const path = file.split(sep).join('/');
  if (path.startsWith('docs/guides/')) return `guides/${path.slice(12).replace(/\.md$/, '')}`;
  if (path.startsWith('docs/adr/')) return `adr/${path.slice(9).replace(/\.md$/, '')}`;
  if (/^examples\/[^/]+\/README\.md$/.test(path)) return `examples/${path.split('/')[1] ?? ''}`;
  return `documents/${path.replace(/\.md$/, '').replaceAll('/', '_')}`;
}

/**
 * The first `# ` heading of a Markdown text, without inline-code backticks.
 * @param {string} text
 */
export function firstHeading(text) {
  const match = /^# (.+)$/m.exec(text);
  return match?.[1]?.replaceAll('`', '').trim();
}

/**
 * TypeDoc derives a heading's anchor from its text tokens only, so "## `toolChoice`" would get no
 * usable anchor while GitHub's is `#toolchoice`. This rewrites inline code inside headings as
 * `<code>` + text + `</code>`: the same HTML, and the code now counts for the anchor.
 * @param {any} parser a markdown-it instance
 */
function codeInHeadingsAsText(parser) {
  parser.core.ruler.push('golem_code_in_headings', (/** @type {any} */ state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i].type !== 'heading_open') continue;
      const inline = tokens[i + 1];
      if (inline?.type !== 'inline' || !inline.children) continue;
      inline.children = inline.children.flatMap((/** @type {any} */ child) => {
        if (child.type !== 'code_inline') return [child];
        const open = new state.Token('html_inline', '', 0);
        open.content = '<code>';
        const text = new state.Token('text', '', 0);
        text.content = child.content;
        const close = new state.Token('html_inline', '', 0);
        close.content = '</code>';
        return [open, text, close];
      });
    }
  });
}

/** Document reflection id → page URL without extension; filled during conversion. */
const documentUrls = new Map();

/** TypeDoc's "kind" router, with documents at URLs taken from their source paths. */
class GolemRouter extends KindRouter {
  /** @param {import('typedoc').Reflection} reflection */
  getIdealBaseName(reflection) {
    return documentUrls.get(reflection.id) ?? super.getIdealBaseName(reflection);
  }
}

/** @param {Application} app */
export function load(app) {
  app.options.addDeclaration({
    name: 'golemNavigation',
    help: 'Golem docs: navigation sections, each { title, documents, titles? }, in reading order.',
    type: ParameterType.Mixed,
    defaultValue: [],
    validate(value) {
      const ok =
        Array.isArray(value) &&
        value.every(
          (section) =>
            typeof section === 'object' &&
            section !== null &&
            typeof section.title === 'string' &&
            Array.isArray(section.documents) &&
            section.documents.every((/** @type {unknown} */ d) => typeof d === 'string'),
        );
      if (!ok)
        throw new Error('golemNavigation must be an array of { title, documents: string[] }');
    },
  });
  app.renderer.defineRouter('golem', GolemRouter);

  /** @type {Map<string, NavigationSection>} absolute document path → its section */
  const sectionOf = new Map();
  let root = process.cwd();

  app.on(Application.EVENT_BOOTSTRAP_END, () => {
    const configFile = app.options.getValue('options');
    root = configFile ? dirname(resolve(configFile)) : process.cwd();
    if (app.options.isSet('projectDocuments')) {
      app.logger.error('typedoc.json: list documents in golemNavigation, not in projectDocuments');
      return;
    }
    const sections = /** @type {NavigationSection[]} */ (app.options.getValue('golemNavigation'));
    const documents = [];
    for (const section of sections) {
      for (const document of section.documents) {
        const absolute = resolve(root, document);
        if (!existsSync(absolute)) {
          app.logger.error(`golemNavigation: ${document} does not exist`);
        } else if (sectionOf.has(absolute)) {
          app.logger.error(`golemNavigation: ${document} is listed twice`);
        } else {
          sectionOf.set(absolute, section);
          documents.push(absolute);
        }
      }
    }
    app.options.setValue('projectDocuments', documents);
    app.options.setValue('groupOrder', [
      ...sections.map((s) => s.title),
      ...app.options.getValue('groupOrder'),
    ]);
    app.options.setValue('markdownItLoader', codeInHeadingsAsText);
    if (!app.options.isSet('router')) app.options.setValue('router', 'golem');
  });

  app.converter.on(Converter.EVENT_CREATE_DOCUMENT, (_context, document) => {
    const path = document.project.files.getReflectionPath(document);
    const section = path === undefined ? undefined : sectionOf.get(resolve(path));
    if (path === undefined || section === undefined) return;
    document.frontmatter.group = section.title;
    documentUrls.set(document.id, documentUrl(relative(root, path)));
    if (section.titles === 'folder') {
      document.name = basename(dirname(path));
    } else {
      document.name = firstHeading(readFileSync(path, 'utf8')) ?? document.name;
    }
  });

  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => {
    const project = context.project;
    for (const module of project.getReflectionsByKind(ReflectionKind.Module)) {
      module.name = importPath(module.name);
    }
    // A link to a folder resolves to the folder's README.md page.
    const files = project.files;
    const documentsByPath = new Map();
    for (const document of project.getReflectionsByKind(ReflectionKind.Document)) {
      const path = files.getReflectionPath(document);
      if (path !== undefined) documentsByPath.set(resolve(path), document);
    }
    for (const path of files.getMediaPaths()) {
      if (!existsSync(path) || !statSync(path).isDirectory()) continue;
      const readme = documentsByPath.get(join(path, 'README.md'));
      if (readme === undefined) {
        app.logger.warn(
          `A link points at the folder ${relative(root, path)}/, which has no README.md page in golemNavigation`,
        );
      } else {
        files.registerReflectionPath(path, readme);
      }
    }
  });
}
