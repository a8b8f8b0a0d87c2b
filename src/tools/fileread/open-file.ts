import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open, readlink, realpath, stat } from 'node:fs/promises';
import { ModelRetry } from '../../core/errors/errors';
import { isInside } from './confine';
import { FileReadError, PathOutsideRootError } from './errors';
import { quotePath } from './path-syntax';

/** Test seam: runs between the confinement check and the open (to stage a race). Internal. */
export interface OpenHooks {
  beforeOpen?: (realPath: string) => void | Promise<void>;
}

// O_NOFOLLOW: a leaf swapped for a symbolic link fails with ELOOP instead of being followed.
// O_NONBLOCK: opening a FIFO does not wait for a writer (it is then refused by fstat).
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What a non-regular file is, for the message. */
export function kindOf(stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Opens the already-confined `realPath` read-only without following a final symbolic link and
 * without blocking, then re-checks the opened descriptor: it must be a regular file whose own
 * real path (from `/proc/self/fd` on Linux, else re-resolved and matched by device and inode) is
 * still inside `root`. Closes the handle on every failure.
 */
export async function openConfined(
  root: string,
  path: string,
  realPath: string,
  hooks: OpenHooks,
): Promise<FileHandle> {
  await hooks.beforeOpen?.(realPath);
  let handle: FileHandle;
  try {
    handle = await open(realPath, FLAGS);
  } catch (error) {
    throw openError(error, path);
  }
  try {
    const stats = await handle.stat();
    const opened = await openedPath(handle, realPath, stats);
    if (!isInside(root, opened)) {
      throw new PathOutsideRootError(
        path,
        `path ${quotePath(path)} changed while it was being opened and now leads outside the workspace root`,
      );
    }
    if (!stats.isFile()) {
      throw new ModelRetry(
        `path ${quotePath(path)} is ${kindOf(stats)}, not a regular file; pass the path of a file`,
      );
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function openedPath(
  handle: FileHandle,
  realPath: string,
  stats: { dev: number; ino: number },
): Promise<string> {
  if (process.platform === 'linux') {
    const link = await readlink(`/proc/self/fd/${handle.fd}`);
    return link.endsWith(' (deleted)') ? link.slice(0, -' (deleted)'.length) : link;
  }
  // No /proc: the path must still resolve inside the root to the very file we hold.
  const again = await realpath(realPath);
  const now = await stat(again);
  return now.dev === stats.dev && now.ino === stats.ino ? again : '';
}

function openError(error: unknown, path: string): Error {
  switch (codeOf(error)) {
    case 'ELOOP':
      return new PathOutsideRootError(
        path,
        `path ${quotePath(path)} became a symbolic link while it was being opened; it was not followed`,
      );
    case 'ENOENT':
      return new ModelRetry(
        `no such file: ${quotePath(path)} (it disappeared while being opened)`,
        {
          cause: error,
        },
      );
    default:
      return new FileReadError(path, error);
  }
}
