/**
 * The README's `golem run` command, run verbatim (spawned from this checkout's bin) against the
 * README's own agent: both are read from README.md, so the README and the command stay in sync.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, golem, linkDependencies, writeFiles } from '../support/consumer-project';

jest.setTimeout(60_000);

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

/** The words of a shell command line: whitespace-separated, '…' and "…" quoting, no escapes. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const word = /'([^']*)'|"([^"]*)"|([^\s'"]+)|(\s+)/g;
  let current: string | undefined;
  for (const match of line.matchAll(word)) {
    if (match[4] !== undefined) {
      if (current !== undefined) words.push(current);
      current = undefined;
      continue;
    }
    current = (current ?? '') + (match[1] ?? match[2] ?? match[3] ?? '');
  }
  if (current !== undefined) words.push(current);
  return words;
}

/** The README's `npx golem run …` command (inline code), as its arguments after `golem`. */
function readmeCommand(): string[] {
  const commands = [...README.matchAll(/`npx golem (run [^`]+)`/g)].map((match) => match[1]);
  expect(commands).toHaveLength(1);
  return shellWords((commands[0] as string).replace(/\s*\n\s*/g, ' '));
}

/** The README's TypeScript block that declares the agent class the command runs. */
function readmeAgentSource(exportName: string): string {
  const blocks = [...README.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
  const declares = new RegExp(`^(@\\w[^\\n]*\\n)*(export )?class ${exportName}\\b`, 'm');
  const found = blocks.filter((block) => declares.test(block));
  expect(found).toHaveLength(1);
  // As the README's paragraph says: export the class.
  return (found[0] as string).replace(
    new RegExp(`^(export )?class ${exportName}\\b`, 'm'),
    `export class ${exportName}`,
  );
}

let root: string;
/** A consumer folder holding the README's agent at the path the command names. */
let dir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'golem-readme-run-'));
  const [, module, exportName] = readmeCommand();
  dir = join(root, 'consumer');
  linkDependencies(dir);
  writeFiles(dir, {
    'package.json': '{"name":"consumer","private":true}',
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        strict: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        useDefineForClassFields: false,
        esModuleInterop: true,
        skipLibCheck: true,
      },
    }),
    [module as string]: readmeAgentSource(exportName as string),
  });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

test("the README's golem run command runs the README's agent", () => {
  const argv = readmeCommand();
  const [command, , exportName, prompt] = argv;
  expect(command).toBe('run');
  expect(argv).toContain('--model');
  const result = golem(join(REPO, 'bin', 'golem.js'), dir, argv);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const lines = result.stdout.split('\n');
  expect(lines).toContain(`agent: ${exportName as string}`);
  expect(lines).toContain('model: test (binding "default", --model test)');
  expect(lines).toContain(`  user: ${prompt as string}`);
  expect(lines.find((line) => line.startsWith('output: '))).toMatch(
    /^output: \{"city":"Lagos","celsius":\d+\}$/,
  );
  // The deps reached the run: the instructions name the user the README's --deps passes.
  const deps = JSON.parse(argv[argv.indexOf('--deps') + 1] as string) as { name: string };
  expect(lines.find((line) => line.startsWith('  system: '))).toContain(deps.name);
});

test("the README's command without --deps fails naming --deps, not with a bare TypeError", () => {
  const argv = readmeCommand();
  const at = argv.indexOf('--deps');
  const without = [...argv.slice(0, at), ...argv.slice(at + 2)];
  const result = golem(join(REPO, 'bin', 'golem.js'), dir, without);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('golem run: the run could not start: instructions function');
  expect(result.stderr).toContain(`golem run: no --deps was given;`);
  expect(result.stderr).toContain(`--deps '{"name":"Ada"}'`);
});
