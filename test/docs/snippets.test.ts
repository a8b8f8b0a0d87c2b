/**
 * Every ```ts block of the guides (docs/guides/**\/*.md) and of README.md compiles against the
 * sources. The blocks are written to a temporary folder, one module each, with a tsconfig that
 * extends the repository's (so `golem`, `golem/testing`, ... map to the sources), and type-checked
 * in one TypeScript program. A block fenced as ```ts no-check is deliberately partial and skipped
 * (see docs/guides/README.md, "Code in the guides").
 */
import {
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

interface Snippet {
  /** The Markdown file, relative to the repository root. */
  source: string;
  /** 1-based line of the block's first code line in `source`. */
  line: number;
  code: string;
  /** The file the block is compiled as, in the temporary folder. */
  file: string;
}

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

/** Whether a block uses `await` outside any function: it must compile as an ES module. */
function hasTopLevelAwait(code: string): boolean {
  const file = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node): boolean => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return false;
    if (ts.isAwaitExpression(node)) return true;
    if (ts.isForOfStatement(node) && node.awaitModifier !== undefined) return true;
    return ts.forEachChild(node, visit) ?? false;
  };
  return file.statements.some(visit);
}

function collectSnippets(): { snippets: Omit<Snippet, 'file'>[]; skipped: number } {
  const sources = [join(repo, 'README.md'), ...markdownFiles(join(repo, 'docs', 'guides'))];
  const snippets: Omit<Snippet, 'file'>[] = [];
  let skipped = 0;
  for (const path of sources) {
    const source = relative(repo, path).split(sep).join('/');
    for (const block of typescriptBlocks(readFileSync(path, 'utf8'))) {
      if (/\bno-check\b/.test(block.info)) skipped++;
      else snippets.push({ source, line: block.line, code: block.code });
    }
  }
  return { snippets, skipped };
}

/** Type-checks the snippets in one program; returns `source:line: TSxxxx message` per error. */
function typeCheck(blocks: Omit<Snippet, 'file'>[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'golem-snippets-'));
  try {
    // Bare imports (zod, @modelcontextprotocol/sdk, ...) resolve from the repository's packages.
    symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const snippets: Snippet[] = blocks.map((block, index) => {
      const name = block.source.replace(/[^a-z0-9]+/gi, '_');
      const extension = hasTopLevelAwait(block.code) ? 'mts' : 'ts';
      const file = join(
        dir,
        `${String(index).padStart(3, '0')}_${name}_L${block.line}.${extension}`,
      );
      // `export {}` keeps each block a module of its own (isolatedModules, no shared names).
      writeFileSync(file, `${block.code}\nexport {};\n`);
      return { ...block, file };
    });
    const tsconfig = join(dir, 'tsconfig.json');
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(repo, 'tsconfig.json'),
        compilerOptions: {
          noEmit: true,
          rootDir: '/',
          declaration: false,
          sourceMap: false,
          typeRoots: [join(repo, 'node_modules', '@types')],
        },
        include: ['*.ts', '*.mts'],
      }),
    );
    const config = ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    });
    if (config === undefined) throw new Error(`cannot read ${tsconfig}`);
    const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
    const problems = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(
      (d) => `tsconfig: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
    for (const snippet of snippets) {
      const sourceFile = program.getSourceFile(snippet.file);
      if (sourceFile === undefined) {
        problems.push(`${snippet.source}:${snippet.line}: the block was not compiled`);
        continue;
      }
      const diagnostics = [
        ...program.getSyntacticDiagnostics(sourceFile),
        ...program.getSemanticDiagnostics(sourceFile),
      ];
      for (const d of diagnostics) {
        const line =
          d.start === undefined ? 0 : sourceFile.getLineAndCharacterOfPosition(d.start).line;
        const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
        problems.push(
          `${snippet.source}:${snippet.line + line}: TS${d.code} ${message} (block at line ${snippet.line})`,
        );
      }
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('code in the guides', () => {
  const { snippets, skipped } = collectSnippets();

  test('the guides hold TypeScript blocks, few of them marked no-check', () => {
    expect(snippets.length).toBeGreaterThan(20);
    expect(skipped).toBeLessThanOrEqual(Math.ceil(snippets.length / 5));
  });

  test('every ```ts block compiles against the sources', () => {
    expect(typeCheck(snippets)).toEqual([]);
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
