import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CancelledError, ModelRetry, isCancellation, ConfigError } from 'golem';
import { READ_FILE_TOOL, fileRead } from 'golem/tools/fileread';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from '../../../../src/tools/fileread/options';
import { context, reasonOf, rejection, tempDir } from './support';
import { PathOutsideRootError, UnsupportedContentError } from '../../../support/internal-errors';

let base: string;
let root: string;

beforeAll(async () => {
  base = await tempDir('golem-fileread-');
  root = join(base, 'ws');
  await mkdir(join(root, 'docs', 'deep'), { recursive: true });
  await writeFile(join(root, 'docs', 'deep', 'note.txt'), 'nested text\nsecond line\n');
  await writeFile(join(root, 'README.md'), '# Title\n\nBody.\n');
  await writeFile(join(root, 'hundred.txt'), 'x'.repeat(100));
  await writeFile(join(root, 'lines.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  await writeFile(join(root, 'no-final-newline.txt'), 'a\nb');
  await writeFile(join(root, 'crlf.txt'), 'a\r\nb\r\n');
  await writeFile(join(root, 'empty.txt'), '');
  await writeFile(join(root, 'accents.txt'), 'aé€😀');
  await writeFile(join(root, 'image.png'), Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'latin1'));
  await writeFile(join(root, 'nul.txt'), 'text\0more');
  await writeFile(join(root, 'utf16.txt'), Buffer.from('\xff\xfeh\0i\0', 'latin1'));
  await writeFile(join(base, 'secret.txt'), 'top secret');
  await mkdir(join(base, 'ws_evil'));
  await writeFile(join(base, 'ws_evil', 'secret'), 'sibling secret');
  await symlink(join(base, 'secret.txt'), join(root, 'escape'));
  await symlink(join(root, 'docs'), join(root, 'docs-link'));
  await symlink(join(root, 'README.md'), join(root, 'readme-link'));
  await symlink(join(root, 'docs'), join(base, 'root-link'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('fileRead construction (FR-1)', () => {
  test.each([
    [
      { root: '' } as never,
      'root',
      'fileRead: `root` must be the path of an existing directory, got ""',
    ],
    [
      {} as never,
      'root',
      'fileRead: `root` must be the path of an existing directory, got undefined',
    ],
    [
      undefined as never,
      'root',
      'fileRead: pass an options object with `root`, e.g. fileRead({ root: "./workspace" })',
    ],
  ])('options %j are refused naming %s', (options, option, message) => {
    expect.assertions(3);
    try {
      fileRead(options);
    } catch (error) {
      expect(ConfigError.is(error, 'fileread')).toBe(true);
      expect((error as ConfigError).option).toBe(option);
      expect((error as Error).message).toBe(message);
    }
  });

  test('a missing root, a root that is a file, negative and fractional caps, and unknown options are refused', () => {
    const problems = [
      { root: join(base, 'missing') },
      { root: join(root, 'README.md') },
      { root, maxBytes: -1 },
      { root, maxLines: 1.5 },
      { root, maxbytes: 10 },
    ].map((options) => {
      try {
        fileRead(options);
        return 'accepted';
      } catch (error) {
        return ConfigError.is(error, 'fileread')
          ? `${error.option}: ${error.message}`
          : String(error);
      }
    });
    expect(problems[0]).toMatch(
      /^root: fileRead: `root` ".*\/missing" does not exist or cannot be resolved \(ENOENT: /u,
    );
    expect(problems.slice(1)).toEqual([
      `root: fileRead: \`root\` ${JSON.stringify(join(root, 'README.md'))} is not a directory`,
      'maxBytes: fileRead: `maxBytes` must be a non-negative integer (0 for the default), got -1',
      'maxLines: fileRead: `maxLines` must be a non-negative integer (0 for the default), got 1.5',
      'maxbytes: fileRead: unknown option `maxbytes`; known: root, maxBytes, maxLines',
    ]);
  });

  test('the tool is read_file with one required string property and no others', () => {
    const tool = fileRead({ root });
    expect(tool.name).toBe(READ_FILE_TOOL);
    expect(tool.name).toBe('read_file');
    expect(tool.schema).toEqual({
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'File path relative to the workspace root, e.g. "src/index.ts".',
        },
        startLine: {
          type: 'integer',
          minimum: 1,
          description: 'First line to return, 1-based (default 1).',
        },
        endLine: {
          type: 'integer',
          minimum: 1,
          description: 'Last line to return, inclusive (default: the end of the file).',
        },
      },
      required: ['path'],
      additionalProperties: false,
    });
    expect(tool.description).toContain(
      `At most ${DEFAULT_MAX_LINES} lines and ${DEFAULT_MAX_BYTES} bytes`,
    );
    expect([tool.maxRetries, tool.timeout, tool.sequential]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('0 means the defaults (1 MiB, 2000 lines)', () => {
    expect(fileRead({ root, maxBytes: 0, maxLines: 0 }).description).toContain(
      'At most 2000 lines and 1048576 bytes',
    );
  });

  test('the root is resolved through symbolic links once, at construction', async () => {
    const tool = fileRead({ root: join(base, 'root-link') });
    await expect(tool.execute({ path: 'deep/note.txt' }, context())).resolves.toBe(
      'nested text\nsecond line\n',
    );
  });
});

describe('reading (FR-2, FR-6)', () => {
  test('FR-2 a nested file comes back byte for byte', async () => {
    const tool = fileRead({ root });
    await expect(tool.execute({ path: 'docs/deep/note.txt' }, context())).resolves.toBe(
      'nested text\nsecond line\n',
    );
  });

  test.each([
    ['./README.md', '# Title\n\nBody.\n'],
    ['docs//deep/./note.txt', 'nested text\nsecond line\n'],
    ['docs\\deep\\note.txt', 'nested text\nsecond line\n'],
    ['docs-link/deep/note.txt', 'nested text\nsecond line\n'],
    ['readme-link', '# Title\n\nBody.\n'],
    ['empty.txt', ''],
    ['crlf.txt', 'a\r\nb\r\n'],
    ['accents.txt', 'aé€😀'],
  ])('%s reads as %j', async (path, text) => {
    await expect(fileRead({ root }).execute({ path }, context())).resolves.toBe(text);
  });

  test('FR-6 100 bytes with maxBytes 16 → 16 bytes, a blank line and the marker', async () => {
    const tool = fileRead({ root, maxBytes: 16 });
    await expect(tool.execute({ path: 'hundred.txt' }, context())).resolves.toBe(
      `${'x'.repeat(16)}\n\n[fileread: file truncated at 16 bytes]`,
    );
  });

  test('a byte cut inside a UTF-8 sequence drops the partial character', async () => {
    const tool = fileRead({ root, maxBytes: 5 });
    await expect(tool.execute({ path: 'accents.txt' }, context())).resolves.toBe(
      'aé\n\n[fileread: file truncated at 5 bytes]',
    );
  });

  test('a file exactly at the cap is not marked', async () => {
    await expect(
      fileRead({ root, maxBytes: 100 }).execute({ path: 'hundred.txt' }, context()),
    ).resolves.toBe('x'.repeat(100));
  });
});

describe('line ranges and the line cap', () => {
  const read = (args: object, options: object = {}) =>
    fileRead({ root, ...options }).execute({ path: 'lines.txt', ...args }, context());

  test.each([
    [{ startLine: 2 }, 'two\nthree\nfour\nfive\n'],
    [{ startLine: 2, endLine: 3 }, 'two\nthree\n'],
    [{ endLine: 1 }, 'one\n'],
    [{ startLine: 5, endLine: 5 }, 'five\n'],
    [{ startLine: 4, endLine: 99 }, 'four\nfive\n'],
  ])('%j selects %j', async (range, text) => {
    await expect(read(range)).resolves.toBe(text);
  });

  test('the line cap cuts with a marker naming the next start line', async () => {
    await expect(read({}, { maxLines: 2 })).resolves.toBe(
      'one\ntwo\n\n[fileread: file truncated at 2 lines; continue with startLine 3]',
    );
    await expect(read({ startLine: 3 }, { maxLines: 2 })).resolves.toBe(
      'three\nfour\n\n[fileread: file truncated at 2 lines; continue with startLine 5]',
    );
    await expect(read({}, { maxLines: 1 })).resolves.toBe(
      'one\n\n[fileread: file truncated at 1 line; continue with startLine 2]',
    );
  });

  test('a range within the line cap, or ending at the end of the file, is not marked', async () => {
    await expect(read({ startLine: 2, endLine: 3 }, { maxLines: 2 })).resolves.toBe('two\nthree\n');
    await expect(read({ startLine: 4 }, { maxLines: 2 })).resolves.toBe('four\nfive\n');
    await expect(read({}, { maxLines: 5 })).resolves.toBe('one\ntwo\nthree\nfour\nfive\n');
  });

  test('the byte cap applies to the selected lines', async () => {
    await expect(read({ startLine: 3 }, { maxBytes: 8 })).resolves.toBe(
      'three\nfo\n\n[fileread: file truncated at 8 bytes]',
    );
  });

  test('a last line without a newline counts as a line', async () => {
    const tool = fileRead({ root });
    await expect(
      tool.execute({ path: 'no-final-newline.txt', startLine: 2 }, context()),
    ).resolves.toBe('b');
  });

  test('a start line past the end is a ModelRetry naming the line count', async () => {
    const error = await rejection(fileRead({ root }), { path: 'lines.txt', startLine: 6 });
    expect(ModelRetry.is(error)).toBe(true);
    expect(reasonOf(error)).toBe('startLine 6 is past the end of "lines.txt", which has 5 lines');
    const empty = await rejection(fileRead({ root }), { path: 'empty.txt', startLine: 2 });
    expect(reasonOf(empty)).toBe('startLine 2 is past the end of "empty.txt", which has 0 lines');
  });
});

describe('path mistakes are ModelRetry (FR-3)', () => {
  test.each([
    [
      '/etc/passwd',
      'path "/etc/passwd" is absolute; pass a path relative to the workspace root, such as "README.md"',
    ],
    [
      '../secret.txt',
      'path "../secret.txt" contains a ".." segment; paths must stay inside the workspace root',
    ],
    [
      'a/../../secret.txt',
      'path "a/../../secret.txt" contains a ".." segment; paths must stay inside the workspace root',
    ],
    ['escape', 'path "escape" is a symbolic link that resolves outside the workspace root'],
  ])('%s → PathOutsideRootError', async (path, reason) => {
    const error = await rejection(fileRead({ root }), { path });
    expect(ModelRetry.is(error)).toBe(true);
    expect(PathOutsideRootError.is(error)).toBe(true);
    expect(error).toBeInstanceOf(PathOutsideRootError);
    expect(reasonOf(error)).toBe(reason);
    expect(error).toMatchObject({ path });
  });

  test.each([
    [
      'missing.txt',
      'no such file: "missing.txt"; check the path (it is relative to the workspace root)',
    ],
    [
      'nope/missing.txt',
      'no such file: "nope/missing.txt" ("nope" does not exist); check the path (it is relative to the workspace root)',
    ],
    ['README.md/x', 'no such file: "README.md/x" ("README.md" is a file, not a directory)'],
    [
      '.',
      'path "." is the workspace root directory; pass the path of a file, such as "README.md"; it contains: README.md, accents.txt, crlf.txt, docs/, docs-link, empty.txt, escape, hundred.txt, image.png, lines.txt, no-final-newline.txt, nul.txt, pipe, readme-link, utf16.txt',
    ],
    [
      'docs',
      'path "docs" is a directory, not a file; pass the path of a file inside it; it contains: deep/',
    ],
    [
      'docs/deep/',
      'path "docs/deep/" is a directory, not a file; pass the path of a file inside it, such as "docs/deep/note.txt"; it contains: note.txt',
    ],
    [
      'pipe',
      'path "pipe" is a named pipe (FIFO), not a regular file; only regular files can be read',
    ],
  ])('%s → ModelRetry %j', async (path, reason) => {
    const error = await rejection(fileRead({ root }), { path });
    expect(ModelRetry.is(error)).toBe(true);
    expect(PathOutsideRootError.is(error)).toBe(false);
    expect(reasonOf(error)).toBe(reason);
  });
});

describe('bad arguments are ModelRetry (FR-4)', () => {
  test.each([
    [null, 'the arguments must be a JSON object such as {"path": "README.md"}, got null'],
    [
      ['README.md'],
      'the arguments must be a JSON object such as {"path": "README.md"}, got ["README.md"]',
    ],
    [
      'README.md',
      'the arguments must be a JSON object such as {"path": "README.md"}, got "README.md"',
    ],
    [{}, '"path" must be a non-empty string relative to the workspace root, such as "README.md"'],
    [
      { path: '' },
      '"path" must be a non-empty string relative to the workspace root, such as "README.md"',
    ],
    [
      { path: 7 },
      '"path" must be a non-empty string relative to the workspace root, such as "README.md"',
    ],
    [
      { path: 'a', extra: 1 },
      'unknown argument "extra"; the arguments are path, startLine and endLine',
    ],
    [{ path: 'a', startLine: 0 }, '"startLine" must be a whole number of at least 1, got 0'],
    [{ path: 'a', startLine: 1.5 }, '"startLine" must be a whole number of at least 1, got 1.5'],
    [{ path: 'a', endLine: '3' }, '"endLine" must be a whole number of at least 1, got "3"'],
    [
      { path: 'a', startLine: 3, endLine: 2 },
      '"endLine" (2) is before "startLine" (3); pass endLine >= startLine',
    ],
  ])('%j → %j', async (args, reason) => {
    const error = await rejection(fileRead({ root }), args);
    expect(ModelRetry.is(error)).toBe(true);
    expect(reasonOf(error)).toBe(reason);
  });
});

describe('content that is not UTF-8 text (FR-5)', () => {
  test.each([
    ['image.png', 'image/png'],
    ['nul.txt', 'application/octet-stream'],
    ['utf16.txt', 'text/plain; charset=utf-16le'],
  ])('%s → UnsupportedContentError %s, not ModelRetry', async (path, contentType) => {
    const error = await rejection(fileRead({ root }), { path });
    expect(UnsupportedContentError.is(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(false);
    expect(error).toMatchObject({ path, contentType });
    expect(error.message).toBe(`fileread: "${path}" is not UTF-8 text (sniffed ${contentType})`);
  });
});

describe('cancellation (FR-7)', () => {
  test('an already-aborted signal is the first thing checked', async () => {
    const controller = new AbortController();
    controller.abort('stop');
    const error = await rejection(
      fileRead({ root }),
      { path: '/etc/passwd' },
      context(controller.signal),
    );
    expect(CancelledError.is(error)).toBe(true);
    expect(isCancellation(error)).toBe(true);
    expect(error.cause).toBe('stop');
  });
});
