/**
 * The examples that need a service (their folder's services.txt names it): run for real against
 * the machine's services and compared with their expected-output.txt line for line, as
 * test/examples does for the offline ones.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

jest.setTimeout(60_000); // they start processes of their own

const root = join(__dirname, '..', '..', 'examples');
const folders = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'services.txt')))
  .map((entry) => entry.name)
  .sort();

test('the examples needing services are found (queue-workers among them)', () => {
  expect(folders).toContain('queue-workers');
});

test.each(folders)('example %s prints exactly its expected-output.txt', async (name) => {
  const loaded = (await import(join(root, name, 'main.ts'))) as {
    main: (log: (line: string) => void) => Promise<void>;
  };
  const printed: string[] = [];
  await loaded.main((line) => printed.push(line));
  const expected = readFileSync(join(root, name, 'expected-output.txt'), 'utf8');
  expect(expected.endsWith('\n')).toBe(true);
  expect(printed.join('\n').split('\n')).toEqual(expected.slice(0, -1).split('\n'));
});
