import { constants, type Stats } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';

/** Flags for opening a resolved file: no symlink follow at the leaf, no blocking on FIFOs. */
export const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Whether canonical path `candidate` is `root` or lies beneath it. Compares whole segments, so
 * `/skills_evil` is not inside `/skills`; never a bare string prefix.
 */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  if (!candidate.startsWith(prefix)) return false;
  const rest = relative(root, candidate);
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
}

/** The `code` of a Node system error, if any. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Why a model-supplied relative path is unacceptable, or `undefined` when it is a plain relative
 * path. Checked before any filesystem call: no absolute or drive paths, no backslashes, no `..`
 * segments, no NUL or control characters. Nothing is URL-decoded or `~`-expanded.
 */
export function relativePathProblem(path: string): string | undefined {
  if (path === '') return 'must not be empty';
  if (path.length > 1024) return 'is longer than 1024 characters';
  // eslint-disable-next-line no-control-regex -- the point is to refuse control characters
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'contains control characters';
  if (path.includes('\\')) return 'contains a backslash; use "/" between folders';
  if (isAbsolute(path) || /^[A-Za-z]:/.test(path)) {
    return 'is absolute; give a path relative to the skill folder';
  }
  if (path.split('/').includes('..')) return 'contains a ".." segment';
  return undefined;
}

/** A resolved file opened for reading, with the identity it was checked against. */
export interface OpenedFile {
  handle: FileHandle;
  stats: Stats;
}

/**
 * Resolves `target` (under `root`) through every symlink, requires the real path to stay inside
 * `root`, and opens it without following a leaf symlink and without blocking. The opened file must
 * be a regular file and the very inode that was checked (a swap between check and open fails).
 * Returns `{ outside: true }` or the opened file; filesystem errors propagate with their codes.
 */
export async function openConfined(
  root: string,
  target: string,
): Promise<{ outside: true } | { outside: false; real: string; file: OpenedFile | 'not-regular' }> {
  const real = await realpath(target);
  if (!isInside(root, real)) return { outside: true };
  const checked = await stat(real);
  if (!checked.isFile()) return { outside: false, real, file: 'not-regular' };
  const handle = await open(real, OPEN_FLAGS);
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.ino !== checked.ino || stats.dev !== checked.dev) {
      await handle.close();
      return { outside: false, real, file: 'not-regular' };
    }
    return { outside: false, real, file: { handle, stats } };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads at most `limit` bytes from the start of an open file, in bounded chunks. */
export async function readAtMost(handle: FileHandle, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.alloc(Math.min(65_536, limit - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}

/** The longest prefix of `bytes` of at most `limit` bytes that does not split a UTF-8 sequence. */
export function utf8Prefix(bytes: Buffer, limit: number): Buffer {
  if (bytes.length <= limit) return bytes;
  let end = limit;
  // Back off over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}
