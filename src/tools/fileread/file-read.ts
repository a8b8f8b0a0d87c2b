import { lstat } from 'node:fs/promises';
import { cancellationError } from '../../core/errors/cancellation';
import { ModelRetry } from '../../core/errors/errors';
import { defineTool } from '../../core/tool/define-tool';
import type { Tool } from '../../core/tool/tool';
import { parseArgs } from './arguments';
import { directoryHint, resolveConfined } from './confine';
import { FileReadError } from './errors';
import type { OpenHooks } from './open-file';
import { kindOf, openConfined } from './open-file';
import type { FileReadOptions, ResolvedFileReadOptions } from './options';
import { resolveOptions } from './options';
import { pathSegments, quotePath } from './path-syntax';
import { readText } from './read-text';

/** The tool's name, as advertised to the model. */
export const READ_FILE_TOOL = 'read_file';

function description(options: ResolvedFileReadOptions): string {
  return [
    'Read a UTF-8 text file from the workspace.',
    '`path` is relative to the workspace root (no absolute paths, `..` or `~`).',
    'Optional `startLine` and `endLine` (1-based, inclusive) select a range of lines.',
    `At most ${options.maxLines} lines and ${options.maxBytes} bytes are returned per call; a marker says when the file was cut.`,
    'Binary files are refused.',
  ].join(' ');
}

const SCHEMA = {
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
};

/** Builds the tool with test seams. Internal: use {@link fileRead}. */
export function createFileRead(options: FileReadOptions, hooks: OpenHooks = {}): Tool {
  const resolved = resolveOptions(options);
  const { root } = resolved;
  return defineTool({
    name: READ_FILE_TOOL,
    description: description(resolved),
    schema: SCHEMA,
    execute: async (rawArgs, ctx) => {
      if (ctx.signal.aborted) throw cancellationError(ctx.signal);
      const args = parseArgs(rawArgs);
      const segments = pathSegments(args.path);
      if (segments.length === 0) {
        const hint = await directoryHint(root);
        const example =
          hint.firstFile === undefined ? '' : `, such as ${quotePath(hint.firstFile)}`;
        throw new ModelRetry(
          `path ${quotePath(args.path)} is the workspace root directory; pass the path of a file${example}${hint.listing}`,
        );
      }
      const real = await resolveConfined(root, args.path, segments);
      await checkKind(real, args.path);
      const handle = await openConfined(root, args.path, real, hooks);
      try {
        return await readText(handle, {
          path: args.path,
          startLine: args.startLine,
          endLine: args.endLine,
          maxBytes: resolved.maxBytes,
          maxLines: resolved.maxLines,
          signal: ctx.signal,
        });
      } catch (error) {
        if (error instanceof Error && 'code' in error) throw new FileReadError(args.path, error);
        throw error;
      } finally {
        await handle.close();
      }
    },
  });
}

/** Refuses directories (listing what they hold) and special files before opening anything. */
async function checkKind(real: string, path: string): Promise<void> {
  let stats;
  try {
    stats = await lstat(real);
  } catch (error) {
    throw new FileReadError(path, error);
  }
  if (stats.isDirectory()) {
    const hint = await directoryHint(real);
    const base = path.replace(/[/\\]+$/u, '');
    const example =
      hint.firstFile === undefined ? '' : `, such as ${quotePath(`${base}/${hint.firstFile}`)}`;
    throw new ModelRetry(
      `path ${quotePath(path)} is a directory, not a file; pass the path of a file inside it${example}${hint.listing}`,
    );
  }
  if (!stats.isFile()) {
    throw new ModelRetry(
      `path ${quotePath(path)} is ${kindOf(stats)}, not a regular file; only regular files can be read`,
    );
  }
}

/**
 * The `read_file` tool: reads a UTF-8 text file inside `root` (argument `path`, optional
 * `startLine`/`endLine`). Paths are confined to the canonical root: absolute paths, `..`, `~`,
 * drive letters, control and bidirectional characters are refused before any file-system call,
 * and the real path of every ancestor and of the target must stay inside the root. Only regular
 * files are opened (`O_NOFOLLOW | O_NONBLOCK`, re-checked after opening); binary content is
 * refused; output is capped by bytes and lines with a marker. Throws a `fileread` `ConfigError`
 * for invalid options.
 */
export function fileRead(options: FileReadOptions): Tool {
  return createFileRead(options);
}
