/**
 * Every ```ts block of the guides (docs/guides/**\/*.md) and of README.md compiles against the
 * sources, in a CommonJS app and in an ES module app. The blocks are written to a temporary
 * folder, one module each, once per setting, with a tsconfig that extends the repository's (so
 * `golem`, `golem/testing`, ... map to the sources), and type-checked in one TypeScript program
 * per setting:
 *
 * - `commonjs`: `module: commonjs` (node10 resolution) — the README's tsconfig, Nest's classic one;
 * - `commonjs-nodenext`: `module: nodenext` in a `"type": "commonjs"` package (where TS1309 comes
 *   from, and the setup the container needs in a CommonJS app);
 * - `esm`: `module: nodenext` in a `"type": "module"` package.
 *
 * A block fenced as ```ts no-check is deliberately partial and skipped; one fenced as ```ts esm
 * is ES-module-only (top-level `await` as its point) and compiled only as an ES module — it must
 * then really fail as CommonJS, or the mark is reported as unneeded (see CONTRIBUTING.md and
 * docs/guides/README.md, "Code in the guides").
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import * as ts from 'typescript';

const repo = join(__dirname, '..', '..');

interface Block {
  /** The Markdown file, relative to the repository root. */
  source: string;
  /** 1-based line of the block's first code line in `source`. */
  line: number;
  code: string;
  /** Fenced ```ts esm: compiled only as an ES module. */
  esmOnly: boolean;
}

/** How a consumer's app compiles: the options over the repository's tsconfig, the package type. */
interface Setting {
  name: string;
  packageType: 'commonjs' | 'module';
  compilerOptions: Record<string, unknown>;
  /** Whether a block is left out of this setting (it is compiled in the others). */
  leavesOut?: (block: Block) => boolean;
}

const settings: readonly Setting[] = [
  {
    // The `npm init` default with `tsc --init`'s classic tsconfig, the README's, Nest's classic.
    name: 'commonjs',
    packageType: 'commonjs',
    compilerOptions: { module: 'commonjs', moduleResolution: 'node10' },
    // inversify 8 types itself through `exports` only, which node10 resolution cannot read
    // (TS2307): the container needs `"module": "nodenext"` in a CommonJS app (README, "Supported
    // setups", note 1). Those blocks are compiled as CommonJS by the next setting.
    leavesOut: (block) => /\bfrom\s+['"]inversify['"]/.test(block.code),
  },
  {
    name: 'commonjs-nodenext',
    packageType: 'commonjs',
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' },
  },
  {
    name: 'esm',
    packageType: 'module',
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' },
  },
];

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The TypeScript blocks of a Markdown text: fenced ```ts / ```typescript, possibly indented. */
export function typescriptBlocks(text: string): { info: string; line: number; code: string }[] {
  const lines = text.split('\n');
  const blocks: { info: string; line: number; code: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const fence = open[2] ?? '```';
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !close.test(lines[j] ?? ''); j++) {
      const line = lines[j] ?? '';
      body.push(line.slice(Math.min(indent, line.length - line.trimStart().length)));
    }
    const info = (open[3] ?? '').trim();
    if (/^(ts|typescript)(\s|$)/.test(info)) {
      blocks.push({ info, line: i + 2, code: body.join('\n') });
    }
    i = j;
  }
  return blocks;
}

/** Whether a block uses `await` outside any function (which a CommonJS module cannot). */
export function hasTopLevelAwait(code: string): boolean {
  const file = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node): boolean => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return false;
    if (ts.isAwaitExpression(node)) return true;
    if (ts.isForOfStatement(node) && node.awaitModifier !== undefined) return true;
    return ts.forEachChild(node, visit) ?? false;
  };
  return file.statements.some(visit);
}

function collectBlocks(): { blocks: Block[]; skipped: number } {
  const sources = [join(repo, 'README.md'), ...markdownFiles(join(repo, 'docs', 'guides'))];
  const blocks: Block[] = [];
  let skipped = 0;
  for (const path of sources) {
    const source = relative(repo, path).split(sep).join('/');
    for (const block of typescriptBlocks(readFileSync(path, 'utf8'))) {
      const flags = block.info.split(/\s+/).slice(1);
      if (flags.includes('no-check')) skipped++;
      else
        blocks.push({ source, line: block.line, code: block.code, esmOnly: flags.includes('esm') });
    }
  }
  return { blocks, skipped };
}

/** A block's errors in one setting, as `source:line: [setting] TSxxxx message (block at line n)`. */
type Diagnosed = { block: Block; errors: string[] };

/**
 * Parsed declaration and source files, shared by the programs: the sources, the libraries and the
 * packages' declarations are parsed once for the settings that read them the same way (the key
 * holds what parsing depends on: the target, the file's module format, the module option).
 */
const parsedFiles = new Map<string, ts.SourceFile>();

function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    const version =
      typeof languageVersionOrOptions === 'object'
        ? [languageVersionOrOptions.languageVersion, languageVersionOrOptions.impliedNodeFormat]
        : [languageVersionOrOptions];
    const key = JSON.stringify([fileName, ...version, options.module, options.moduleDetection]);
    const cached = parsedFiles.get(key);
    if (cached !== undefined) return cached;
    const file = getSourceFile(fileName, languageVersionOrOptions, onError, shouldCreate);
    // The blocks' own files live in a fresh temporary folder each time: not worth keeping.
    if (file !== undefined && !fileName.includes('golem-snippets-')) parsedFiles.set(key, file);
    return file;
  };
  return host;
}

/**
 * Type-checks every block in one program for `setting`, in its own folder under `root`; returns
 * the configuration's errors and each block's.
 */
function typeCheck(
  root: string,
  setting: Setting,
  blocks: readonly Block[],
): { config: string[]; diagnosed: Diagnosed[] } {
  const dir = join(root, setting.name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: setting.packageType }));
  const files = blocks.map((block, index) => {
    const name = block.source.replace(/[^a-z0-9]+/gi, '_');
    const file = join(dir, `${String(index).padStart(3, '0')}_${name}_L${block.line}.ts`);
    // `export {}` keeps each block a module of its own (isolatedModules, no shared names).
    writeFileSync(file, `${block.code}\nexport {};\n`);
    return file;
  });
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: join(repo, 'tsconfig.json'),
      compilerOptions: {
        ...setting.compilerOptions,
        noEmit: true,
        rootDir: '/',
        declaration: false,
        sourceMap: false,
        typeRoots: [join(repo, 'node_modules', '@types')],
      },
      include: ['*.ts'],
    }),
  );
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error(`cannot read ${tsconfig}`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: cachingHost(parsed.options),
  });
  const config = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(
    (d) =>
      `[${setting.name}] tsconfig: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
  );
  const diagnosed = blocks.map((block, index): Diagnosed => {
    const sourceFile = program.getSourceFile(files[index] ?? '');
    if (sourceFile === undefined) {
      return { block, errors: [`${block.source}:${block.line}: [${setting.name}] not compiled`] };
    }
    const diagnostics = [
      ...program.getSyntacticDiagnostics(sourceFile),
      ...program.getSemanticDiagnostics(sourceFile),
    ];
    const errors = diagnostics.map((d) => {
      const line =
        d.start === undefined ? 0 : sourceFile.getLineAndCharacterOfPosition(d.start).line;
      const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
      return `${block.source}:${block.line + line}: [${setting.name}] TS${d.code} ${message} (block at line ${block.line})`;
    });
    return { block, errors };
  });
  return { config, diagnosed };
}

/**
 * Compiles the blocks under every setting; returns the problems, one line each, and how many
 * blocks each setting compiled. A ```ts esm block is compiled as CommonJS too, only to check that
 * the mark is needed.
 */
function checkBlocks(blocks: readonly Block[]): {
  problems: string[];
  compiled: Record<string, number>;
} {
  const root = mkdtempSync(join(tmpdir(), 'golem-snippets-'));
  try {
    // Bare imports (zod, @modelcontextprotocol/sdk, ...) resolve from the repository's packages.
    symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'), 'dir');
    const problems: string[] = [];
    const compiled: Record<string, number> = {};
    for (const setting of settings) {
      const commonjs = setting.packageType === 'commonjs';
      const included = blocks.filter((block) => setting.leavesOut?.(block) !== true);
      const { config, diagnosed } = typeCheck(root, setting, included);
      problems.push(...config);
      compiled[setting.name] = 0;
      for (const { block, errors } of diagnosed) {
        if (commonjs && block.esmOnly) {
          if (errors.length === 0) {
            problems.push(
              `${block.source}:${block.line}: [${setting.name}] fenced \`ts esm\` but compiles as CommonJS: drop \`esm\``,
            );
          }
          continue;
        }
        compiled[setting.name] = (compiled[setting.name] ?? 0) + 1;
        problems.push(...errors);
        if (commonjs && errors.length > 0 && hasTopLevelAwait(block.code)) {
          problems.push(
            `${block.source}:${block.line}: [${setting.name}] top-level \`await\`: wrap the code in \`async function main()\`, or fence the block \`ts esm\` if ES modules are its point`,
          );
        }
      }
    }
    return { problems, compiled };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('code in the guides', () => {
  const { blocks, skipped } = collectBlocks();

  test('the guides hold TypeScript blocks, few of them marked no-check or esm', () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(skipped).toBeLessThanOrEqual(Math.ceil(blocks.length / 5));
    expect(blocks.filter((block) => block.esmOnly).length).toBeLessThanOrEqual(
      Math.ceil(blocks.length / 10),
    );
  });

  test('every ```ts block compiles against the sources as CommonJS and as an ES module', () => {
    const { problems, compiled } = checkBlocks(blocks);
    expect(problems).toEqual([]);
    // Each setting compiled the blocks it should: all of them, less its leave-outs, and as
    // CommonJS less the ES-module-only ones.
    const expected = Object.fromEntries(
      settings.map((setting) => [
        setting.name,
        blocks.filter(
          (block) =>
            setting.leavesOut?.(block) !== true &&
            !(block.esmOnly && setting.packageType === 'commonjs'),
        ).length,
      ]),
    );
    expect(compiled).toEqual(expected);
  }, 300_000);
});

describe('checkBlocks', () => {
  test('names the guide, line, setting and error; keeps the esm mark honest', () => {
    const awaits = 'declare const p: Promise<number>;\nconst n = await p;';
    const { problems, compiled } = checkBlocks([
      { source: 'docs/guides/tla.md', line: 10, code: awaits, esmOnly: false },
      { source: 'docs/guides/esm.md', line: 20, code: awaits, esmOnly: true },
      { source: 'docs/guides/cjs.md', line: 30, code: 'const n: number = 1;', esmOnly: true },
      { source: 'docs/guides/bad.md', line: 40, code: 'const s: string = 1;', esmOnly: false },
    ]);
    const lines = (source: string): string[] =>
      problems.filter((problem) => problem.startsWith(`docs/guides/${source}.md:`));
    // Top-level await: an error at its line in each CommonJS setting, with the way out.
    expect(lines('tla')).toEqual([
      expect.stringMatching(
        /^docs\/guides\/tla\.md:11: \[commonjs\] TS1378 .*\(block at line 10\)$/,
      ),
      expect.stringMatching(/^docs\/guides\/tla\.md:10: \[commonjs\] top-level `await`: wrap/),
      expect.stringMatching(
        /^docs\/guides\/tla\.md:11: \[commonjs-nodenext\] TS1309 .*\(block at line 10\)$/,
      ),
      expect.stringMatching(/^docs\/guides\/tla\.md:10: \[commonjs-nodenext\] top-level `await`/),
    ]);
    expect(lines('esm')).toEqual([]);
    expect(lines('cjs')).toEqual([
      'docs/guides/cjs.md:30: [commonjs] fenced `ts esm` but compiles as CommonJS: drop `esm`',
      'docs/guides/cjs.md:30: [commonjs-nodenext] fenced `ts esm` but compiles as CommonJS: drop `esm`',
    ]);
    expect(lines('bad')).toEqual([
      expect.stringMatching(/^docs\/guides\/bad\.md:40: \[commonjs\] TS2322 Type 'number' is not/),
      expect.stringMatching(/^docs\/guides\/bad\.md:40: \[commonjs-nodenext\] TS2322 /),
      expect.stringMatching(/^docs\/guides\/bad\.md:40: \[esm\] TS2322 /),
    ]);
    expect(compiled).toEqual({ commonjs: 2, 'commonjs-nodenext': 2, esm: 4 });
  }, 60_000);
});

describe('typescriptBlocks', () => {
  test('finds ts blocks with their first code line, indented ones included', () => {
    const text = [
      '# Title', // 1
      '```ts', // 2
      'const a = 1;', // 3
      '```', // 4
      '```sh', // 5
      'npm test', // 6
      '```', // 7
      '- item', // 8
      '  ```ts no-check', // 9
      '  const b = 2;', // 10
      '  ```', // 11
    ].join('\n');
    expect(typescriptBlocks(text)).toEqual([
      { info: 'ts', line: 3, code: 'const a = 1;' },
      { info: 'ts no-check', line: 10, code: 'const b = 2;' },
    ]);
  });
});
