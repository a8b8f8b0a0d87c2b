import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { ModelRetry } from '../../core/errors/errors';

/** Whether canonical `candidate` is `root` or beneath it (whole segments, never a bare prefix). */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  if (!candidate.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return false;
  const rest = relative(root, candidate);
  return rest !== '' && !rest.startsWith('..') && !isAbsolute(rest);
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/u;

/**
 * The working directory for a call: `dir` itself, or the model's relative `cwd` resolved through
 * symbolic links, which must be a directory inside `dir`. Mistakes are {@link ModelRetry}s.
 */
export async function workingDirectory(dir: string, cwd: string | undefined): Promise<string> {
  if (cwd === undefined || cwd === '' || cwd === '.') return dir;
  const shown = JSON.stringify(cwd);
  if (CONTROL.test(cwd)) throw new ModelRetry(`"cwd" ${shown} contains a control character`);
  if (isAbsolute(cwd) || cwd.startsWith('~') || /^[A-Za-z]:/u.test(cwd)) {
    throw new ModelRetry(`"cwd" ${shown} must be relative to the workspace directory`);
  }
  if (cwd.split(/[/\\]/u).includes('..')) {
    throw new ModelRetry(
      `"cwd" ${shown} contains ".."; it must stay inside the workspace directory`,
    );
  }
  let real: string;
  try {
    real = await realpath(join(dir, cwd));
  } catch {
    throw new ModelRetry(`"cwd" ${shown} does not exist in the workspace directory`);
  }
  if (!isInside(dir, real)) {
    throw new ModelRetry(`"cwd" ${shown} resolves outside the workspace directory`);
  }
  if (!(await stat(real)).isDirectory()) throw new ModelRetry(`"cwd" ${shown} is not a directory`);
  return real;
}
