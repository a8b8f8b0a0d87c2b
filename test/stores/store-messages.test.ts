/**
 * Store error messages bound and escape the ids and values they quote (issue 25, item 5): a
 * 1 MB run id never becomes a 1 MB message, a line break in an id never reaches a log line raw,
 * and a SQLite store in a folder that does not exist says which folder and what to do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, loadRun, RunInputError, StoreError } from 'golem';
import type { RunStore } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import { FunctionModel, textResponse } from 'golem/testing';
import { quote } from '../../src/core/durable/store-error';

const HUGE = 'r'.repeat(1024 * 1024);

describe('quote', () => {
  test('a short id is a JSON string', () => {
    expect(quote('run-1')).toBe('"run-1"');
    expect(quote('say "hi"')).toBe('"say \\"hi\\""');
  });

  test('line breaks and other characters that split or disguise a log line are escaped', () => {
    expect(quote('a\nb\rc\u0000d')).toBe('"a\\nb\\rc\\u0000d"');
    expect(quote('a\u2028b\u2029c\u0085d\u202ee\u007f')).toBe(
      '"a\\u2028b\\u2029c\\u0085d\\u202ee\\u007f"',
    );
  });

  test('a long value is cut after 100 characters, its full length noted', () => {
    const quoted = quote(HUGE);
    expect(quoted).toBe(`"${'r'.repeat(100)}"… (1048576 characters)`);
    // A cut never splits a surrogate pair.
    expect(quote(`${'a'.repeat(99)}😀${'b'.repeat(10)}`)).toBe(
      `"${'a'.repeat(99)}"… (111 characters)`,
    );
  });

  test('a value that is not a string is named by its type, never serialised', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(quote(cyclic)).toBe('an object');
    expect(quote([1, 2])).toBe('an array');
    expect(quote(5)).toBe('a number (5)');
    expect(quote(undefined)).toBe('undefined');
  });
});

const stores: [string, () => { store: RunStore; cleanup: () => Promise<void> }][] = [
  ['memory', () => ({ store: memoryStore(), cleanup: () => Promise.resolve() })],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'golem-messages-'));
      const store = sqliteStore({ path: join(dir, 'runs.db') });
      return {
        store,
        cleanup: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.catch((e: unknown) => e);
  if (!(error instanceof Error)) throw new Error(`expected a rejection, got ${String(error)}`);
  return error;
}

describe.each(stores)('%s: messages quoting ids', (_name, make) => {
  let store: RunStore;
  let cleanup: () => Promise<void>;
  beforeEach(() => {
    ({ store, cleanup } = make());
  });
  afterEach(() => cleanup());

  test('a 1 MB run id is not-found with a message of a few hundred characters', async () => {
    const error = await rejection(loadRun(store, HUGE));
    expect(StoreError.isReason(error, 'not-found') && error.runId).toBe(HUGE);
    expect(error.message.length).toBeLessThan(300);
    expect(error.message).toContain('(1048576 characters)');
  });

  test('a line break in a run id reaches the message escaped', async () => {
    const error = await rejection(loadRun(store, 'evil\nINFO forged log line'));
    expect(error.message).not.toMatch(/[\n\r]/);
    expect(error.message).toContain('"evil\\nINFO forged log line"');
  });

  test('an agent refuses a 1 MB run id with a bounded message', async () => {
    const agent = new Agent({ store, model: new FunctionModel(() => textResponse('ok')) });
    for (const attempt of [
      () => agent.run('hi', { runId: HUGE }),
      () => agent.resumeRun(HUGE),
      () => agent.run('hi', { conversation: `${HUGE}\n` }),
    ]) {
      const error = await rejection(Promise.resolve().then(attempt));
      expect(RunInputError.is(error)).toBe(true);
      expect(error.message.length).toBeLessThan(300);
      expect(error.message).not.toMatch(/[\n\r]/);
    }
  });
});

test('a SQLite store in a folder that does not exist names the path, the folder and the fix', () => {
  const dir = mkdtempSync(join(tmpdir(), 'golem-nofolder-'));
  try {
    const folder = join(dir, 'data', 'golem');
    const path = join(folder, 'runs.db');
    let error: unknown;
    try {
      sqliteStore({ path });
    } catch (e) {
      error = e;
    }
    expect(StoreError.isReason(error, 'unavailable')).toBe(true);
    expect((error as StoreError).retryable).toBe(false);
    expect((error as StoreError).message).toBe(
      `sqlite store: cannot open ${JSON.stringify(path)}: the folder ${JSON.stringify(folder)} does not exist; create it first (mkdir -p, or fs.mkdirSync(folder, { recursive: true })) — the store creates the file, not its folder`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
