/**
 * The quick starts say what they print, and mean it: the README's quick start and the getting
 * started guide's first agent run offline and print the figures their tool returned, and the
 * README's `npm start` output block is exactly what examples/main-job prints (test/examples pins
 * that file against a real run).
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';

const repo = join(__dirname, '..', '..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const gettingStarted = readFileSync(join(repo, 'docs', 'guides', 'getting-started.md'), 'utf8');

/** The body of the ```text block that follows `marker` in `text`. */
function textBlockAfter(text: string, marker: string): string {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`no "${marker}"`);
  const open = text.indexOf('```text\n', at);
  const close = text.indexOf('\n```', open + 8);
  return text.slice(open + 8, close + 1);
}

/** The first ```ts block of a Markdown text. */
function firstTypeScript(text: string): string {
  return /\n```ts\n([\s\S]*?)\n```\n/.exec(text)?.[1] ?? '';
}

const PROVIDER_ENV = /^(OPENAI|ANTHROPIC|GEMINI|GOOGLE|GOLEM)_/;

/**
 * Runs a quick start (a module whose `main()` logs) with no provider key set and returns the
 * arguments of its first `console.log`.
 */
async function firstLog(code: string): Promise<unknown[]> {
  const dir = mkdtempSync(join(tmpdir(), 'golem-quick-start-'));
  const saved = Object.entries(process.env).filter(([key]) => PROVIDER_ENV.test(key));
  for (const [key] of saved) Reflect.deleteProperty(process.env, key);
  try {
    symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'junction');
    writeFileSync(join(dir, 'quick-start.ts'), code);
    const printed = new Promise<unknown[]>((resolve) => {
      jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
        resolve(args);
      });
    });
    await import(join(dir, 'quick-start.ts'));
    return await printed;
  } finally {
    for (const [key, value] of saved) process.env[key] = value;
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the README shows exactly what `npm start` prints offline', () => {
  expect(textBlockAfter(readme, '`npm start` runs this pattern')).toBe(
    readFileSync(join(repo, 'examples', 'main-job', 'expected-output.txt'), 'utf8'),
  );
});

/** The part of `text` from heading `heading` on. */
function section(text: string, heading: string): string {
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`no "${heading}"`);
  return text.slice(at);
}

test('the README quick start runs offline and prints what its output block shows', async () => {
  const quickStart = section(readme, '## Quick start');
  const code = firstTypeScript(quickStart);
  expect(code).toContain("from 'golem/testing'");
  const [first] = await firstLog(code);
  const [shown] = textBlockAfter(quickStart, 'Run it:').split('\n');
  expect(String(first)).toBe(shown);
});

test('the README container quick start runs offline and prints the figures its tool returned', async () => {
  const code = firstTypeScript(section(readme, '## Agents as classes, with the container'));
  expect(code).toContain('class WeatherAgent');
  const [output] = await firstLog(code);
  expect(inspect(output)).toBe("Forecast { city: 'Lagos', celsius: 31 }");
});

test('getting started leads with a decorated agent that prints its tool’s figures', async () => {
  const code = firstTypeScript(gettingStarted);
  expect(code).toContain("from 'golem/decorators'");
  expect(code).toContain("from 'golem/container'");
  const [output] = await firstLog(code);
  expect(inspect(output)).toBe("Reading { city: 'Lagos', celsius: 31 }");
});
