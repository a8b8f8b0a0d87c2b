/**
 * The project `golem init` writes around a template: the template's own files (its agent
 * sources, an offline main — `TestModel` unless a provider key is set — and a node:test test),
 * kept verbatim in the package's `templates/<name>/` beside a `template.json` that says what they
 * need, and the files made for the project: package.json, a complete tsconfig, a README and a
 * .gitignore.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The templates `golem init --template` accepts. */
export const TEMPLATES = ['plain', 'decorated', 'nest'] as const;
export type TemplateName = (typeof TEMPLATES)[number];

/** One line per template, for the usage text and the prompt. */
export const TEMPLATE_SUMMARIES: Readonly<Record<TemplateName, string>> = {
  plain: 'an Agent with a tool (golem only; no decorators)',
  decorated: 'an @Agent class with a @Tool, built by the container (golem/container)',
  nest: 'a NestJS app: GolemModule, an agent and a validated controller (golem/nestjs)',
};

/** What a template is rendered with. */
export interface TemplateInput {
  readonly template: TemplateName;
  /** The package name of the new project. */
  readonly name: string;
  /** The dependency spec of golem (`^0.1.0`, `file:/abs/golem-0.1.0.tgz`, a git URL). */
  readonly golemSpec: string;
  /** Version ranges of every other package the templates name (see {@link dependencyRanges}). */
  readonly ranges: Readonly<Record<string, string>>;
}

/** What a template needs, from its `template.json`. */
export interface TemplateSpec {
  /** Packages besides golem. */
  readonly dependencies: readonly string[];
  /** A package whose range is another's (`@nestjs/platform-express` follows `@nestjs/core`). */
  readonly sameRangeAs?: Readonly<Record<string, string>>;
  /** Whether its classes are decorated (the tsconfig gets the decorator settings). */
  readonly decorators?: boolean;
  /** Its one test file (relative path). */
  readonly test: string;
  /** The README's lines on the project's layout. */
  readonly layout: readonly string[];
  /** The README's start commands; default `npm start`. */
  readonly start?: readonly string[];
}

/** Development dependencies of every template: the compiler and Node's types. */
export const DEV_DEPENDENCIES = ['@types/node', 'typescript'] as const;

/** The package's folder of template `name` (the source tree's or the installed package's). */
export function templateDir(name: TemplateName, root: string = packageRoot()): string {
  return join(root, 'templates', name);
}

/** The folder of golem's own package.json, found upward from this file (source or compiled). */
export function packageRoot(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'golem') return dir;
    } catch {
      // no package.json here (or an unreadable one): look further up
    }
    const parent = join(dir, '..');
    if (parent === dir) throw new Error(`golem's package.json was not found above ${from}`);
    dir = parent;
  }
}

/** Template `name`'s `template.json`. */
export function templateSpec(name: TemplateName, root?: string): TemplateSpec {
  return JSON.parse(
    readFileSync(join(templateDir(name, root), 'template.json'), 'utf8'),
  ) as TemplateSpec;
}

/** The subset of golem's package.json the ranges come from. */
export interface GolemPackageJson {
  readonly version: string;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

/** The newest alternative of a range: `^10.0.0 || ^11.0.0 || ^12.0.0` gives `^12.0.0`. */
function newestAlternative(range: string): string {
  const alternatives = range.split('||').map((part) => part.trim());
  return alternatives[alternatives.length - 1] ?? range;
}

/** `^` and the pinned version of a development dependency (`5.9.3` gives `^5.9.3`). */
function caret(version: string): string {
  return /^\d/.test(version) ? `^${version}` : version;
}

/**
 * The range of every package the templates name, from golem's own package.json: a peer takes the
 * newest alternative of golem's peer range, a package a template ties to another takes that one's
 * range, and TypeScript and `@types/node` take the version golem is built and tested with.
 */
export function dependencyRanges(pkg: GolemPackageJson, root?: string): Record<string, string> {
  const peers = pkg.peerDependencies ?? {};
  const dev = pkg.devDependencies ?? {};
  const specs = TEMPLATES.map((name) => templateSpec(name, root));
  const all = new Set(specs.flatMap((spec) => spec.dependencies));
  const ranges: Record<string, string> = {};
  for (const name of all) {
    const peer = peers[name];
    if (peer !== undefined) ranges[name] = newestAlternative(peer);
  }
  for (const spec of specs)
    for (const [name, other] of Object.entries(spec.sameRangeAs ?? {}))
      if (ranges[other] !== undefined) ranges[name] = ranges[other];
  for (const name of DEV_DEPENDENCIES) {
    const version = dev[name];
    if (version !== undefined) ranges[name] = caret(version);
  }
  for (const name of [...all, ...DEV_DEPENDENCIES])
    if (ranges[name] === undefined)
      throw new Error(`golem's package.json gives no version range for ${name}`);
  return ranges;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

function sorted(entries: [string, string][]): Record<string, string> {
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function packageJson(input: TemplateInput, spec: TemplateSpec): string {
  const range = (name: string): [string, string] => [name, input.ranges[name] as string];
  return json({
    name: input.name,
    version: '0.1.0',
    private: true,
    type: 'commonjs',
    engines: { node: '>=20.19' },
    scripts: {
      build: 'tsc -p tsconfig.json',
      // One file named, not a folder or a glob: Node 20 and Node 22+ read those differently.
      test: `npm run build && node --test dist/${spec.test.replace(/\.ts$/, '.js')}`,
      start: 'npm run build && node dist/src/main.js',
    },
    dependencies: sorted([['golem', input.golemSpec], ...spec.dependencies.map(range)]),
    devDependencies: sorted(DEV_DEPENDENCIES.map(range)),
  });
}

function tsconfig(spec: TemplateSpec): string {
  const decorators =
    spec.decorators === true
      ? {
          // Decorated classes: legacy decorators with metadata (tsc and SWC emit it; tsx and
          // esbuild do not, so build with tsc).
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          useDefineForClassFields: false,
        }
      : {};
  return json({
    compilerOptions: {
      target: 'ES2022',
      // CommonJS output (package.json "type": "commonjs") with Node's resolution of `exports`.
      module: 'nodenext',
      moduleResolution: 'nodenext',
      types: ['node'],
      rootDir: '.',
      outDir: 'dist',
      strict: true,
      esModuleInterop: true,
      skipLibCheck: true,
      forceConsistentCasingInFileNames: true,
      sourceMap: true,
      ...decorators,
    },
    include: ['src', 'test'],
  });
}

const GITIGNORE = 'node_modules/\ndist/\n';

function readme(input: TemplateInput, spec: TemplateSpec): string {
  return `# ${input.name}

A [golem](https://www.npmjs.com/package/golem) agent, from \`golem init --template ${input.template}\`.

\`\`\`sh
npm install
npm test
${(spec.start ?? ['npm start']).join('\n')}
\`\`\`

With no provider key set, the agent runs offline on golem's \`TestModel\`, which calls the tools
with arguments sampled from their schemas (the \`examples\`: Lagos) and answers from their
results. Set \`OPENAI_API_KEY\`, \`ANTHROPIC_API_KEY\`, \`GEMINI_API_KEY\` or
\`GOLEM_LOCAL_BASE_URL\` (Ollama, LM Studio) to run it on that provider
(\`detectDefaultModel(process.env)\`).

${spec.layout.join('\n')}

\`npm run build\` compiles with \`tsc\` into \`dist/\`${
    spec.decorators === true
      ? `: decorated classes need the decorator metadata tsc
(or SWC) emits — tsx and esbuild drop it.`
      : '.'
  }
`;
}

/** Every file below `dir` except `template.json`, by relative `/`-separated path. */
function filesBelow(dir: string, base: string = dir): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, filesBelow(path, base));
    else if (path !== join(base, 'template.json'))
      files[relative(base, path).split(sep).join('/')] = readFileSync(path, 'utf8');
  }
  return files;
}

/** The files of a project: path (relative, `/`-separated) → content. */
export function renderTemplate(input: TemplateInput, root?: string): Record<string, string> {
  const spec = templateSpec(input.template, root);
  return {
    'package.json': packageJson(input, spec),
    'tsconfig.json': tsconfig(spec),
    '.gitignore': GITIGNORE,
    'README.md': readme(input, spec),
    ...filesBelow(templateDir(input.template, root)),
  };
}
