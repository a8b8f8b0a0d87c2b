/**
 * Runs every runnable example (examples/<name>/main.ts) with a collecting log and compares what it
 * printed with the folder's expected-output.txt, line for line. New example folders are picked up
 * automatically. An example that reads its input (an interactive one, such as `conversation`) gets
 * the folder's input.txt as its input stream, as `main(log, input)`.
 */
import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Log = (line: string) => void;
type ExampleMain = (log: Log, input?: NodeJS.ReadableStream) => Promise<void>;

// Some examples start processes of their own (durable-approval starts two Node processes).
jest.setTimeout(30_000);

const root = join(__dirname, '..', '..', 'examples');
const all = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
/**
 * Examples that need a service (their folder's services.txt names it, e.g. `redis`) run in
 * `npm run test:services` (test/services/examples.test.ts); here they are listed as skipped.
 */
const needsServices = (name: string): boolean => existsSync(join(root, name, 'services.txt'));
const folders = all.filter((name) => !needsServices(name));
const serviceFolders = all.filter(needsServices);

async function loadMain(file: string): Promise<ExampleMain> {
  const loaded: unknown = await import(file);
  const main =
    typeof loaded === 'object' && loaded !== null ? (loaded as { main?: unknown }).main : undefined;
  if (typeof main !== 'function') {
    throw new Error(
      `${file} must export async function main(log) (main(log, input) with input.txt)`,
    );
  }
  return main as ExampleMain;
}

/** Lines of an expected-output file, which must end with exactly one newline. */
function expectedLines(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  if (!text.endsWith('\n')) throw new Error(`${file} must end with a newline`);
  return text.slice(0, -1).split('\n');
}

/**
 * Provider credentials and endpoints are removed while examples run, so provider-backed examples
 * take their documented "no key" path on every machine, whatever its environment holds.
 */
const PROVIDER_ENV =
  /^(OPENAI|ANTHROPIC|GEMINI|GOOGLE|AZURE_OPENAI|AWS|GROQ|OPENROUTER|DEEPSEEK|MISTRAL|XAI|PERPLEXITY|CEREBRAS|FIREWORKS|TOGETHER|COHERE|GOLEM)_/;
const saved = new Map<string, string>();
beforeAll(() => {
  for (const [key, value] of Object.entries(process.env)) {
    if (PROVIDER_ENV.test(key) && value !== undefined) {
      saved.set(key, value);
      Reflect.deleteProperty(process.env, key);
    }
  }
});
afterAll(() => {
  for (const [key, value] of saved) process.env[key] = value;
});

test.each(serviceFolders)(
  'example %s names the services it needs (services.txt); npm run test:services runs it',
  (name) => {
    const services = readFileSync(join(root, name, 'services.txt'), 'utf8')
      .trim()
      .split(/\s+/);
    expect(services.length).toBeGreaterThan(0);
    expect(services.filter((s) => s !== 'redis' && s !== 'postgres')).toEqual([]);
    expect(existsSync(join(__dirname, '..', 'services', 'examples.test.ts'))).toBe(true);
  },
);

test('the examples folder holds runnable examples', () => {
  expect(folders.length).toBeGreaterThan(0);
});

test.each(folders)('example %s prints exactly its expected-output.txt', async (name) => {
  const folder = join(root, name);
  expect({
    name,
    main: existsSync(join(folder, 'main.ts')),
    expected: existsSync(join(folder, 'expected-output.txt')),
  }).toEqual({
    name,
    main: true,
    expected: true,
  });
  const main = await loadMain(join(folder, 'main.ts'));
  const printed: string[] = [];
  const log: Log = (line) => {
    printed.push(line);
  };
  const inputFile = join(folder, 'input.txt');
  if (existsSync(inputFile)) {
    const input = createReadStream(inputFile);
    try {
      await main(log, input);
    } finally {
      input.destroy();
    }
  } else {
    await main(log);
  }
  // A logged value may span several lines; compare the text as printed, line by line.
  expect(printed.join('\n').split('\n')).toEqual(
    expectedLines(join(folder, 'expected-output.txt')),
  );
});
