/**
 * `npm test` passes on a fresh clone with nothing beside it: no test outside test/recorded reads
 * the recorded third-party fixtures (../shared/fixtures beside the checkout) or imports the
 * recorded suites' helpers. Those run only in `npm run test:recorded`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const TEST_ROOT = join(__dirname, '..');
const RECORDED = join(TEST_ROOT, 'recorded');

/** Every .ts/.js file under `dir`, except test/recorded. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === RECORDED ? [] : sources(path);
    // This file names the patterns it looks for; it is checked by the second test instead.
    return /\.(ts|js)$/.test(entry.name) && path !== __filename ? [path] : [];
  });
}

/** The code of a file without its comments (good enough for string and import checks). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

const READS_SHARED = [
  /['"`]shared['"`]\s*,\s*['"`]fixtures['"`]/, // join(…, 'shared', 'fixtures', …)
  /['"`][^'"`\n]*shared\/fixtures[^'"`\n]*['"`]/, // '../shared/fixtures/…'
  /from\s+['"][^'"]*\/recorded\/[^'"]*['"]/, // an import from test/recorded
];

test('no test outside test/recorded reads ../shared/fixtures or imports test/recorded', () => {
  const offenders = sources(TEST_ROOT).filter((file) => {
    const text = code(readFileSync(file, 'utf8'));
    return READS_SHARED.some((pattern) => pattern.test(text));
  });
  expect(offenders.map((file) => relative(TEST_ROOT, file))).toEqual([]);
});

test('the boundary check sees the patterns it guards against', () => {
  expect(READS_SHARED[0]?.test("join(root, '..', 'shared', 'fixtures', 'providers')")).toBe(true);
  expect(READS_SHARED[1]?.test("readFileSync('../shared/fixtures/providers/x.json')")).toBe(true);
  expect(READS_SHARED[2]?.test("import { fixtureText } from '../../recorded/providers/x';")).toBe(
    true,
  );
});
