import { showValue } from '../../core/kit/error-base';
import { ModelRetry } from '../../core/errors/errors';
import { isRecord } from '../../core/kit/guards';

/** The arguments of one `read_file` call, validated. Internal. */
export interface ReadFileArgs {
  path: string;
  /** First line returned, 1-based. */
  startLine: number;
  /** Last line returned (inclusive), or `undefined` for the end of the file. */
  endLine: number | undefined;
}

const KNOWN = ['path', 'startLine', 'endLine'];

function lineNumber(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ModelRetry(`"${name}" must be a whole number of at least 1, got ${showValue(value)}`);
  }
  return value;
}

/** Validates the parsed arguments; every mistake is a {@link ModelRetry} saying how to fix it. */
export function parseArgs(args: unknown): ReadFileArgs {
  if (!isRecord(args)) {
    throw new ModelRetry(
      `the arguments must be a JSON object such as {"path": "README.md"}, got ${showValue(args)}`,
    );
  }
  for (const key of Object.keys(args)) {
    if (!KNOWN.includes(key)) {
      throw new ModelRetry(
        `unknown argument ${JSON.stringify(key)}; the arguments are path, startLine and endLine`,
      );
    }
  }
  const path = args.path;
  if (typeof path !== 'string' || path === '') {
    throw new ModelRetry(
      `"path" must be a non-empty string relative to the workspace root, such as "README.md"`,
    );
  }
  const startLine = lineNumber('startLine', args.startLine) ?? 1;
  const endLine = lineNumber('endLine', args.endLine);
  if (endLine !== undefined && endLine < startLine) {
    throw new ModelRetry(
      `"endLine" (${endLine}) is before "startLine" (${startLine}); pass endLine >= startLine`,
    );
  }
  return { path, startLine, endLine };
}
