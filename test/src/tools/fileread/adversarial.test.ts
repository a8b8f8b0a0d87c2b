import { execFileSync } from 'node:child_process';
import fs, { promises as fsPromises } from 'node:fs';
import { mkdir, rename, rm, symlink, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelRetry } from 'golem';
import { fileRead } from 'golem/tools/fileread';
import { isInside } from '../../../../src/tools/fileread/confine';
import { createFileRead } from '../../../../src/tools/fileread/file-read';
import { context, reasonOf, rejection, tempDir } from './support';
import { PathOutsideRootError, UnsupportedContentError } from '../../../support/internal-errors';

let base: string;
let root: string;

beforeAll(async () => {
  base = await tempDir('golem-fileread-adv-');
  root = join(base, 'ws');
  await mkdir(join(root, '%2e%2e'), { recursive: true });
  await writeFile(join(root, '%2e%2e', 'x'), 'literal name');
  await writeFile(join(base, 'x'), 'outside x');
  await writeFile(join(base, 'secret.txt'), 'top secret');
  await mkdir(join(base, 'ws_evil'));
  await writeFile(join(base, 'ws_evil', 'secret'), 'sibling secret');
  await symlink('../ws_evil/secret', join(root, 'sibling'));
  await symlink('/etc/shadow', join(root, 'shadow'));
  await symlink('/', join(root, 'up'));
  await symlink('/dev/zero', join(root, 'zero'));
  await mkdir(join(root, 'names'));
  await writeFile(join(root, 'names', 'plain.txt'), 'plain');
  await writeFile(join(root, 'names', 'invoice\u202Etxt.exe'), 'rtlo');
  await writeFile(join(root, 'sparse.bin'), '');
  await truncate(join(root, 'sparse.bin'), 5 * 1024 ** 3);
  await writeFile(join(root, 'sparse-text.txt'), 'hello\n');
  await truncate(join(root, 'sparse-text.txt'), 5 * 1024 ** 3);
  await writeFile(join(root, 'big.txt'), 'abcdefghij\n'.repeat(300_000));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Spies on every file-system entry point the tool could use; `stop` restores them and lists those called. */
function spyOnFileSystem(): { stop: () => string[] } {
  const spies: jest.SpyInstance[] = [];
  const names: string[] = [];
  const promiseApi = fsPromises as unknown as Record<string, unknown>;
  for (const name of Object.keys(promiseApi)) {
    if (typeof promiseApi[name] !== 'function') continue;
    spies.push(jest.spyOn(promiseApi as Record<string, () => unknown>, name));
    names.push(`fs/promises.${name}`);
  }
  const callbackApi = fs as unknown as Record<string, () => unknown>;
  for (const name of [
    'open',
    'openSync',
    'stat',
    'statSync',
    'lstat',
    'lstatSync',
    'realpath',
    'realpathSync',
    'readlink',
    'readlinkSync',
    'readdir',
    'readdirSync',
    'readFile',
    'readFileSync',
    'access',
    'accessSync',
    'existsSync',
  ]) {
    spies.push(jest.spyOn(callbackApi, name));
    names.push(`fs.${name}`);
  }
  return {
    stop: () => {
      const called = spies.flatMap((spy, i) => (spy.mock.calls.length > 0 ? [names[i] ?? ''] : []));
      for (const spy of spies) spy.mockRestore();
      return called;
    },
  };
}

describe('ADV-17 path traversal matrix, refused before any fs call', () => {
  const cases: [string, string][] = [
    [
      '../../etc/passwd',
      'path "../../etc/passwd" contains a ".." segment; paths must stay inside the workspace root',
    ],
    [
      '/etc/passwd',
      'path "/etc/passwd" is absolute; pass a path relative to the workspace root, such as "README.md"',
    ],
    [
      './a/../../x',
      'path "./a/../../x" contains a ".." segment; paths must stay inside the workspace root',
    ],
    [
      '..\\..\\x',
      'path "..\\\\..\\\\x" contains a ".." segment; paths must stay inside the workspace root',
    ],
    [
      'a\\..\\..\\x',
      'path "a\\\\..\\\\..\\\\x" contains a ".." segment; paths must stay inside the workspace root',
    ],
    [
      'C:\\x',
      'path "C:\\\\x" starts with a drive letter; pass a path relative to the workspace root',
    ],
    ['c:x', 'path "c:x" starts with a drive letter; pass a path relative to the workspace root'],
    [
      '\\\\server\\share\\x',
      'path "\\\\\\\\server\\\\share\\\\x" is absolute; pass a path relative to the workspace root, such as "README.md"',
    ],
    ['a\u0000b', 'path "a\\u0000b" contains the control character U+0000; remove it'],
    ['a\rb', 'path "a\\u000db" contains the control character U+000D; remove it'],
    ['a\nb', 'path "a\\u000ab" contains the control character U+000A; remove it'],
    [
      'names/invoice\u202Etxt.exe',
      'path "names/invoice\\u202etxt.exe" contains the bidirectional control character U+202E; names with such characters are refused',
    ],
    [
      '~/.ssh/id_rsa',
      'path "~/.ssh/id_rsa" starts with "~"; home-directory paths are outside the workspace root',
    ],
    [
      '~root/x',
      'path "~root/x" starts with "~"; home-directory paths are outside the workspace root',
    ],
  ];

  test.each(cases)('%j → PathOutsideRootError, no fs call', async (path, reason) => {
    const tool = fileRead({ root });
    const fsSpy = spyOnFileSystem();
    const error = await rejection(tool, { path }).finally(() => {
      expect(fsSpy.stop()).toEqual([]);
    });
    expect(PathOutsideRootError.is(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(true);
    expect(reasonOf(error)).toBe(reason);
  });

  test('the sibling-prefix path /ws_evil/secret is refused before any fs call', async () => {
    const tool = fileRead({ root });
    const path = join(base, 'ws_evil', 'secret');
    const fsSpy = spyOnFileSystem();
    const error = await rejection(tool, { path }).finally(() => {
      expect(fsSpy.stop()).toEqual([]);
    });
    expect(PathOutsideRootError.is(error)).toBe(true);
  });

  test('the spy sees the file system when a path is allowed (the assertion above has teeth)', async () => {
    const tool = fileRead({ root });
    const fsSpy = spyOnFileSystem();
    const called: string[] = [];
    const read = Promise.resolve(tool.execute({ path: 'names/plain.txt' }, context()));
    const text = await read.finally(() => {
      called.push(...fsSpy.stop());
    });
    expect(text).toBe('plain');
    expect(called).toEqual(
      expect.arrayContaining(['fs/promises.realpath', 'fs/promises.open', 'fs/promises.readlink']),
    );
  });

  test('%2e%2e is a literal name, never URL-decoded into a traversal', async () => {
    const tool = fileRead({ root });
    await expect(tool.execute({ path: '%2e%2e/x' }, context())).resolves.toBe('literal name');
    const error = await rejection(tool, { path: '%2e%2e/secret.txt' });
    expect(reasonOf(error)).toBe(
      'no such file: "%2e%2e/secret.txt"; check the path (it is relative to the workspace root)',
    );
    const encoded = await rejection(tool, { path: '%2e%2e%2fx' });
    expect(reasonOf(encoded)).toBe(
      'no such file: "%2e%2e%2fx"; check the path (it is relative to the workspace root)',
    );
  });

  test('a symbolic link into a sibling whose name extends the root is outside (separator boundary)', async () => {
    const error = await rejection(fileRead({ root }), { path: 'sibling' });
    expect(PathOutsideRootError.is(error)).toBe(true);
    expect(reasonOf(error)).toBe(
      'path "sibling" is a symbolic link that resolves outside the workspace root',
    );
  });

  test('isInside compares whole segments, never a bare string prefix', () => {
    expect(isInside('/ws', '/ws_evil/secret')).toBe(false);
    expect(isInside('/ws', '/ws')).toBe(true);
    expect(isInside('/ws', '/ws/a')).toBe(true);
    expect(isInside('/ws', '/w')).toBe(false);
    expect(isInside('/ws', '/')).toBe(false);
    expect(isInside('/', '/etc')).toBe(true);
  });

  test('directory listings leave out names with bidirectional controls', async () => {
    const error = await rejection(fileRead({ root }), { path: 'names' });
    expect(reasonOf(error)).toBe(
      'path "names" is a directory, not a file; pass the path of a file inside it, such as "names/plain.txt"; it contains: plain.txt',
    );
  });
});

describe('ADV-18 symbolic-link escapes, TOCTOU and special files', () => {
  test('a leaf symbolic link to /etc/shadow is refused', async () => {
    const error = await rejection(fileRead({ root }), { path: 'shadow' });
    expect(PathOutsideRootError.is(error)).toBe(true);
    expect(reasonOf(error)).toBe(
      'path "shadow" is a symbolic link that resolves outside the workspace root',
    );
  });

  test('a symlinked ancestor to / is refused at the ancestor', async () => {
    const error = await rejection(fileRead({ root }), { path: 'up/etc/passwd' });
    expect(PathOutsideRootError.is(error)).toBe(true);
    expect(reasonOf(error)).toBe(
      '"up" in path "up/etc/passwd" is a symbolic link that resolves outside the workspace root',
    );
  });

  test('a symbolic link to /dev/zero is refused as outside the root', async () => {
    const error = await rejection(fileRead({ root }), { path: 'zero' });
    expect(PathOutsideRootError.is(error)).toBe(true);
  });

  const canMknod = ((): boolean => {
    try {
      const probe = join(tmpdir(), `golem-mknod-${process.pid}`);
      execFileSync('mknod', [probe, 'c', '1', '5'], { stdio: 'ignore' });
      fs.unlinkSync(probe);
      return true;
    } catch {
      return false;
    }
  })();

  (canMknod ? test : test.skip)(
    'a character device inside the root is refused without reading it',
    async () => {
      execFileSync('mknod', [join(root, 'dev-zero'), 'c', '1', '5']);
      const error = await rejection(fileRead({ root }), { path: 'dev-zero' });
      expect(reasonOf(error)).toBe(
        'path "dev-zero" is a character device, not a regular file; only regular files can be read',
      );
    },
  );

  test('a 5 GB sparse file is refused from its first 512 bytes', async () => {
    const error = await rejection(fileRead({ root }), { path: 'sparse.bin' });
    expect(UnsupportedContentError.is(error)).toBe(true);
    expect(error).toMatchObject({ contentType: 'application/octet-stream' });
    const text = await rejection(fileRead({ root }), { path: 'sparse-text.txt' });
    expect(text).toMatchObject({ contentType: 'application/octet-stream' });
  });

  test('a large text file is cut at the default 1 MiB', async () => {
    const result = await fileRead({ root, maxLines: 1_000_000 }).execute(
      { path: 'big.txt' },
      context(),
    );
    expect(result).toBe(
      `${'abcdefghij\n'.repeat(300_000).slice(0, 1_048_576)}\n\n[fileread: file truncated at 1048576 bytes]`,
    );
  });

  describe('a path swapped between the check and the open', () => {
    beforeEach(async () => {
      await rm(join(root, 'race'), { recursive: true, force: true });
      await mkdir(join(root, 'race', 'dir'), { recursive: true });
      await writeFile(join(root, 'race', 'dir', 'file.txt'), 'inside');
      await rm(join(base, 'outside'), { recursive: true, force: true });
      await mkdir(join(base, 'outside'));
      await writeFile(join(base, 'outside', 'file.txt'), 'outside secret');
    });

    test('an untouched path reads normally through the same seam', async () => {
      const seen: string[] = [];
      const tool = createFileRead({ root }, { beforeOpen: (real) => void seen.push(real) });
      await expect(tool.execute({ path: 'race/dir/file.txt' }, context())).resolves.toBe('inside');
      expect(seen).toEqual([join(root, 'race', 'dir', 'file.txt')]);
    });

    test('a leaf swapped for a symbolic link is not followed (O_NOFOLLOW)', async () => {
      const tool = createFileRead(
        { root },
        {
          beforeOpen: async (real) => {
            await unlink(real);
            await symlink(join(base, 'outside', 'file.txt'), real);
          },
        },
      );
      const error = await rejection(tool, { path: 'race/dir/file.txt' });
      expect(PathOutsideRootError.is(error)).toBe(true);
      expect(reasonOf(error)).toBe(
        'path "race/dir/file.txt" became a symbolic link while it was being opened; it was not followed',
      );
    });

    test('an ancestor swapped for a symbolic link is caught by re-checking the open descriptor', async () => {
      const tool = createFileRead(
        { root },
        {
          beforeOpen: async () => {
            await rename(join(root, 'race', 'dir'), join(root, 'race', 'dir-old'));
            await symlink(join(base, 'outside'), join(root, 'race', 'dir'));
          },
        },
      );
      const error = await rejection(tool, { path: 'race/dir/file.txt' });
      expect(PathOutsideRootError.is(error)).toBe(true);
      expect(reasonOf(error)).toBe(
        'path "race/dir/file.txt" changed while it was being opened and now leads outside the workspace root',
      );
    });

    test('a file swapped for a FIFO is refused without hanging', async () => {
      const tool = createFileRead(
        { root },
        {
          beforeOpen: async (real) => {
            await unlink(real);
            execFileSync('mkfifo', [real]);
          },
        },
      );
      const error = await rejection(tool, { path: 'race/dir/file.txt' });
      expect(ModelRetry.is(error)).toBe(true);
      expect(reasonOf(error)).toBe(
        'path "race/dir/file.txt" is a named pipe (FIFO), not a regular file; pass the path of a file',
      );
    });

    test('a file removed before the open is a missing file', async () => {
      const tool = createFileRead({ root }, { beforeOpen: (real) => unlink(real) });
      const error = await rejection(tool, { path: 'race/dir/file.txt' });
      expect(reasonOf(error)).toBe(
        'no such file: "race/dir/file.txt" (it disappeared while being opened)',
      );
    });
  });
});
