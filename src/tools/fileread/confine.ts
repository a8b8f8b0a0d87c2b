import { readdir, realpath } from 'node:fs/promises';
import { join, relative, isAbsolute, sep } from 'node:path';
import { ModelRetry } from '../../core/errors/errors';
import { FileReadError, PathOutsideRootError } from './errors';
import { isDisplayableName, quotePath } from './path-syntax';

/**
 * Whether canonical path `candidate` is `root` or lies beneath it. Compares whole segments
 * (`/ws_evil` is not inside `/ws`), never a bare string prefix.
 */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  if (!candidate.startsWith(prefix)) return false;
  const rest = relative(root, candidate);
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Resolves `segments` under the canonical `root`, one ancestor at a time: the real path of every
 * prefix (and so of the target) must stay inside the root, so neither a leaf symbolic link nor a
 * symlinked ancestor can lead outside. Returns the target's real path.
 */
export async function resolveConfined(
  root: string,
  path: string,
  segments: readonly string[],
): Promise<string> {
  let current = root;
  const full = segments.join('/');
  for (const [index, segment] of segments.entries()) {
    const prefix = segments.slice(0, index + 1).join('/');
    let real: string;
    try {
      real = await realpath(join(current, segment));
    } catch (error) {
      throw resolveError(
        error,
        path,
        prefix === full ? '' : prefix,
        segments.slice(0, index).join('/'),
      );
    }
    if (!isInside(root, real)) {
      throw new PathOutsideRootError(
        path,
        prefix === full
          ? `path ${quotePath(path)} is a symbolic link that resolves outside the workspace root`
          : `${quotePath(prefix)} in path ${quotePath(path)} is a symbolic link that resolves outside the workspace root`,
      );
    }
    current = real;
  }
  return current;
}

function resolveError(error: unknown, path: string, prefix: string, parent: string): Error {
  switch (codeOf(error)) {
    case 'ENOENT':
      return new ModelRetry(
        prefix === ''
          ? `no such file: ${quotePath(path)}; check the path (it is relative to the workspace root)`
          : `no such file: ${quotePath(path)} (${quotePath(prefix)} does not exist); check the path (it is relative to the workspace root)`,
        { cause: error },
      );
    case 'ENOTDIR':
      return new ModelRetry(
        `no such file: ${quotePath(path)} (${quotePath(parent)} is a file, not a directory)`,
        { cause: error },
      );
    case 'ELOOP':
      return new ModelRetry(`path ${quotePath(path)} has a symbolic-link loop`, { cause: error });
    case 'ENAMETOOLONG':
      return new ModelRetry(`path ${quotePath(path)} has a name that is too long`, {
        cause: error,
      });
    default:
      return new FileReadError(path, error);
  }
}

/** What a directory holds, for the message when the model asked to read it. Internal. */
export interface DirectoryHint {
  /** `; it contains: a.txt, lib/` (at most 20 names), `; it is empty`, or `''` when unreadable. */
  listing: string;
  /** The first regular file's name, for an example path. */
  firstFile: string | undefined;
}

/** Lists `directory` for a hint; names with control or bidirectional characters are left out. */
export async function directoryHint(directory: string): Promise<DirectoryHint> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true });
  } catch {
    return { listing: '', firstFile: undefined };
  }
  const shown = entries
    .filter((entry) => isDisplayableName(entry.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = shown.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
  const firstFile = shown.find((entry) => entry.isFile())?.name;
  if (names.length === 0) return { listing: '; it is empty', firstFile };
  const more = names.length > 20 ? `, … (${names.length} entries)` : '';
  return { listing: `; it contains: ${names.slice(0, 20).join(', ')}${more}`, firstFile };
}
