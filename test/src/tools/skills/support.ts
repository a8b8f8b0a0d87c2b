/** Shared helpers of the skills suites: temp skill folders and a tool context. */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Tool, ToolContext } from 'golem';

/** A `SKILL.md` with the given front-matter lines and body. */
export function skillMd(
  fields: Record<string, string>,
  body = '# Steps\n\nDo the thing.\n',
): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${value}`);
  return ['---', ...lines, '---', body].join('\n');
}

/** Creates a fresh temp directory (canonical path) for one test; remove it with `cleanup`. */
export async function tempDir(prefix = 'golem-skills-'): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

/** Writes `files` (relative path → content) under `root`, creating folders. */
export async function writeTree(
  root: string,
  files: Record<string, string | Buffer>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
  }
}

export async function cleanup(...dirs: string[]): Promise<void> {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}

/** A tool context with a live (or the given) signal. */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    deps: undefined,
    signal,
    callId: 'call-1',
    toolName: 'skill',
    rawArgs: '{}',
    approved: false,
    retry: 0,
  };
}

/** Runs `tool` with `args` and a fresh context. */
export async function call(tool: Tool, args: unknown, signal?: AbortSignal): Promise<string> {
  return tool.execute(args, toolContext(signal));
}

/** Captures what `run` throws (fails the test when it does not throw). */
export async function caught(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error, but nothing was thrown');
}

/** Captures what `run` throws and checks it with a brand guard such as `ModelRetry.is`. */
export async function caughtAs<T>(
  is: (value: unknown) => value is T,
  run: () => unknown,
): Promise<T> {
  const error = await caught(run);
  if (!is(error)) throw new Error(`unexpected error: ${String(error)}`, { cause: error });
  return error;
}
