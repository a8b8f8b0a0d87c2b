import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { throwIfCancelled } from '../../core/errors/cancellation';
import { isInside } from './confine';
import { SKILL_FILE } from './catalog';

/** At most this many files are listed for one skill. */
export const MAX_LISTED_FILES = 500;
/** Folders deeper than this below the skill folder are not listed. */
export const MAX_LIST_DEPTH = 8;

/**
 * The regular files of a skill folder (besides its top-level `SKILL.md`), as sorted `/`-separated
 * relative paths. Symbolic links are listed only when they resolve to a regular file inside the
 * skill folder; symlinked folders are not followed; dot-entries are skipped. The list stops at
 * {@link MAX_LISTED_FILES} with a marker line.
 */
export async function listSkillFiles(dir: string, signal: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  const state = { truncated: false };
  const walk = async (relative: string, depth: number): Promise<void> => {
    throwIfCancelled(signal);
    const entries = await readdir(join(dir, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (relative === '' && entry.name === SKILL_FILE) continue;
      if (entry.isDirectory()) {
        if (depth < MAX_LIST_DEPTH) await walk(path, depth + 1);
      } else if (
        entry.isFile() ||
        (entry.isSymbolicLink() && (await linksToFileInside(dir, path)))
      ) {
        if (files.length === MAX_LISTED_FILES) {
          state.truncated = true;
          return;
        }
        files.push(path);
      }
      if (state.truncated) return;
    }
  };
  await walk('', 0);
  if (state.truncated) files.push(`[skills: file list truncated at ${MAX_LISTED_FILES} entries]`);
  return files;
}

async function linksToFileInside(dir: string, path: string): Promise<boolean> {
  try {
    const real = await realpath(join(dir, path));
    return isInside(dir, real) && (await stat(real)).isFile();
  } catch {
    return false;
  }
}
