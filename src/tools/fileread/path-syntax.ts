import { PathOutsideRootError } from './errors';

/** Longest path text accepted, in UTF-16 code units. */
export const MAX_PATH_LENGTH = 4096;

// C0 and C1 controls and DEL: NUL, CR, LF, tab, escape sequences…
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// Bidirectional formatting characters (RTLO U+202E and friends) that make names display falsely.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const DRIVE = /^[A-Za-z]:/u;
// eslint-disable-next-line no-control-regex
const ESCAPED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * `path` quoted for a message: JSON-style quotes with every control and bidirectional character
 * shown as `\uXXXX`, so hostile names cannot reorder or break the text the model reads.
 */
export function quotePath(path: string): string {
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return `"${shown
    .replace(/\\/gu, '\\\\')
    .replace(/"/gu, '\\"')
    .replace(ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** `U+XXXX` of the first character of `text` matching `pattern`. */
function codePointOf(text: string, pattern: RegExp): string {
  const match = pattern.exec(text)?.[0] ?? '';
  return `U+${match.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Splits a model-supplied relative path into its segments without touching the file system.
 * `/` and `\` both separate segments; empty and `.` segments are dropped. Throws
 * `PathOutsideRootError` for absolute paths, drive letters, `~`, `..` segments, control
 * and bidirectional characters, and over-long paths. Nothing is URL-decoded: `%2e%2e` is a name.
 */
export function pathSegments(path: string): string[] {
  const shown = quotePath(path);
  if (path.length > MAX_PATH_LENGTH) {
    throw new PathOutsideRootError(
      path,
      `the path is ${path.length} characters long (limit ${MAX_PATH_LENGTH}); pass a shorter relative path`,
    );
  }
  if (CONTROL.test(path)) {
    throw new PathOutsideRootError(
      path,
      `path ${shown} contains the control character ${codePointOf(path, CONTROL)}; remove it`,
    );
  }
  if (BIDI.test(path)) {
    throw new PathOutsideRootError(
      path,
      `path ${shown} contains the bidirectional control character ${codePointOf(path, BIDI)}; names with such characters are refused`,
    );
  }
  if (path.startsWith('/') || path.startsWith('\\')) {
    throw new PathOutsideRootError(
      path,
      `path ${shown} is absolute; pass a path relative to the workspace root, such as "README.md"`,
    );
  }
  if (DRIVE.test(path)) {
    throw new PathOutsideRootError(
      path,
      `path ${shown} starts with a drive letter; pass a path relative to the workspace root`,
    );
  }
  if (path.startsWith('~')) {
    throw new PathOutsideRootError(
      path,
      `path ${shown} starts with "~"; home-directory paths are outside the workspace root`,
    );
  }
  const segments = path.split(/[/\\]/u);
  if (segments.includes('..')) {
    throw new PathOutsideRootError(
      path,
      `path ${shown} contains a ".." segment; paths must stay inside the workspace root`,
    );
  }
  return segments.filter((segment) => segment !== '' && segment !== '.');
}

/** Whether a name is safe to show the model in a directory listing. */
export function isDisplayableName(name: string): boolean {
  return !CONTROL.test(name) && !BIDI.test(name);
}
