import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { InvalidSkillError, skillsConfigError } from './errors';
import {
  FRONT_MATTER_LIMIT,
  parseFrontMatter,
  splitSkillFile,
  type SkillMetadata,
} from './front-matter';
import { errorCode, isInside, OPEN_FLAGS } from './confine';
import { resolveSkillsOptions, type SkillsOptions } from './options';

/** The file that makes a folder a skill. */
export const SKILL_FILE = 'SKILL.md';

/** One discovered skill. */
export interface SkillEntry extends SkillMetadata {
  /** Real path of the skill folder (its base directory). */
  readonly dir: string;
  /** Real path of the skills root the skill was found in. */
  readonly root: string;
}

/** The skills found under the roots, in discovery order (roots in order, names sorted). */
export interface SkillCatalog {
  /** Skills by name; first root wins on duplicates. */
  readonly skills: ReadonlyMap<string, SkillEntry>;
  /** Canonical roots, in search order. */
  readonly roots: readonly string[];
  /** Cap on a returned body or file, in bytes. */
  readonly maxBytes: number;
}

/**
 * Scans the roots (one level: `<root>/<name>/SKILL.md`) and validates every skill's front matter.
 * Throws `InvalidSkillError` for any invalid skill and a `skills` `ConfigError` for bad
 * options or an empty catalog. Folders without `SKILL.md`, plain files and dot-entries are skipped.
 */
export function loadSkillCatalog(options: SkillsOptions): SkillCatalog {
  const resolved = resolveSkillsOptions(options);
  const skills = new Map<string, SkillEntry>();
  for (const root of resolved.roots) {
    for (const folder of readdirSync(root).sort()) {
      if (folder.startsWith('.')) continue;
      const entry = readSkill(root, folder);
      if (entry !== undefined && !skills.has(entry.name)) skills.set(entry.name, entry);
    }
  }
  if (skills.size === 0) {
    throw skillsConfigError(
      resolved.roots.length === 1 ? 'root' : 'roots',
      `holds no skills: each skill is a folder <root>/<name>/${SKILL_FILE}`,
    );
  }
  return Object.freeze({ skills, roots: resolved.roots, maxBytes: resolved.maxBytes });
}

function readSkill(root: string, folder: string): SkillEntry | undefined {
  const shown = join(root, folder);
  const dir = realpathSync(shown);
  if (!isInside(root, dir) || dir === root) {
    throw new InvalidSkillError(shown, 'is a symbolic link that resolves outside the skills root');
  }
  if (!statSync(dir).isDirectory()) return undefined;
  const file = join(dir, SKILL_FILE);
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const path = join(shown, SKILL_FILE);
  if (!isInside(dir, real)) {
    throw new InvalidSkillError(path, 'is a symbolic link that resolves outside its skill folder');
  }
  const bytes = readHead(path, real);
  const split = splitSkillFile(bytes);
  if (typeof split === 'string') throw new InvalidSkillError(path, split);
  const metadata = parseFrontMatter(split.yaml, folder);
  if (typeof metadata === 'string') throw new InvalidSkillError(path, metadata);
  return Object.freeze({ ...metadata, dir, root });
}

/** Reads the first bytes of a regular file without following a leaf link or blocking. */
function readHead(path: string, real: string): Buffer {
  if (!statSync(real).isFile()) throw new InvalidSkillError(path, 'is not a regular file');
  const fd = openSync(real, OPEN_FLAGS);
  try {
    if (!fstatSync(fd).isFile()) throw new InvalidSkillError(path, 'is not a regular file');
    const buffer = Buffer.alloc(FRONT_MATTER_LIMIT);
    let filled = 0;
    for (;;) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (read === 0 || (filled += read) === buffer.length) break;
    }
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}
