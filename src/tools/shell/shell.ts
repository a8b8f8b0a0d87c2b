import type { JsonSchema } from '../../core/kit/json';
import {
  DeadlineExceededError,
  cancellationError,
  throwIfCancelled,
} from '../../core/errors/cancellation';
import { ModelRetry } from '../../core/errors/errors';
import { defineTool } from '../../core/tool/define-tool';
import type { Tool } from '../../core/tool/tool';
import { parseCall } from './arguments';
import { childEnvironment } from './environment';
import { CommandStartError, CommandTimeoutError } from './errors';
import type { ResolvedShellOptions, ShellOptions } from './options';
import { resolveOptions } from './options';
import { renderResult } from './output';
import { runProcess } from './run-process';
import { workingDirectory } from './working-dir';

/** The tool's name, as advertised to the model. */
export const RUN_COMMAND_TOOL = 'run_command';

function description(options: ResolvedShellOptions): string {
  const allowed =
    options.allow === undefined
      ? ''
      : ` Allowed commands: ${[...options.allow].sort().join(', ')}.`;
  const how =
    options.mode === 'shell'
      ? 'Run a command line with /bin/sh. Commands may be joined with &&, ||, ; and |; variables, substitutions, redirections and background jobs are refused.'
      : 'Run one program without a shell. Send `command` (split into words like bash: quotes and backslashes work; no pipes, redirections, variables or globbing) or `argv` (the program and its arguments, passed exactly).';
  return `${how}${allowed} \`cwd\` optionally names a directory inside the workspace. stdout and stderr come back together (at most ${options.maxBytes} bytes), followed by the exit status when it is not 0. Commands are killed after ${options.timeout} ms.`;
}

function schema(options: ResolvedShellOptions): JsonSchema {
  const command = {
    type: 'string',
    description:
      options.mode === 'shell'
        ? 'The command line, e.g. "ls -la | head".'
        : 'The command line, e.g. "ls -la src".',
  };
  const cwd = {
    type: 'string',
    description: 'Working directory relative to the workspace (default: the workspace).',
  };
  if (options.mode === 'shell') {
    return {
      type: 'object',
      properties: { command, cwd },
      required: ['command'],
      additionalProperties: false,
    };
  }
  return {
    type: 'object',
    properties: {
      command,
      argv: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description:
          'Instead of command: the program and its arguments, e.g. ["grep", "-n", "a b", "f.txt"].',
      },
      cwd,
    },
    additionalProperties: false,
  };
}

function startError(display: string, file: string, error: Error): Error {
  if ((error as { code?: unknown }).code === 'ENOENT') {
    return new ModelRetry(
      `command not found: ${JSON.stringify(file)}; no shell runs here, so builtins such as cd and export are unavailable (use the cwd argument to change directory)`,
      { cause: error },
    );
  }
  return new CommandStartError(display, error);
}

/**
 * The `run_command` tool. By default (`mode: 'argv'`) it runs one program directly — no shell —
 * from a bash-style command line or an `argv` array; `mode: 'shell'` runs a command list through
 * `/bin/sh` after checking every command name against `allow`. Either way the child runs in its
 * own process group with an allow-listed environment in the configured directory; stdout and
 * stderr return together, capped; the timeout (default 60 s) and cancellation kill the whole
 * group. Throws a `shell` `ConfigError` for invalid options.
 */
export function shell(options: ShellOptions = {}): Tool {
  const resolved = resolveOptions(options);
  return defineTool({
    name: RUN_COMMAND_TOOL,
    description: description(resolved),
    schema: schema(resolved),
    execute: async (raw, ctx) => {
      if (ctx.signal.aborted) throw cancellationError(ctx.signal);
      const call = parseCall(raw, resolved);
      const cwd = await workingDirectory(resolved.dir, call.cwd);
      throwIfCancelled(ctx.signal);
      const outcome = await runProcess({
        file: call.file,
        args: call.args,
        cwd,
        env: childEnvironment(resolved.env),
        timeout: resolved.timeout,
        maxBytes: resolved.maxBytes,
        signal: ctx.signal,
      });
      switch (outcome.kind) {
        case 'start-failed':
          throw startError(call.display, call.file, outcome.error);
        case 'aborted':
          throw cancellationError(ctx.signal);
        case 'timeout': {
          const { output } = outcome;
          const partial = renderResult(
            output.text(),
            output.truncated ? output.maxBytes : undefined,
            { kind: 'exit', code: 0 },
          );
          throw new CommandTimeoutError(
            call.display,
            resolved.timeout,
            partial,
            new DeadlineExceededError(
              `command exceeded the shell timeout of ${resolved.timeout} ms`,
            ),
          );
        }
        case 'finished': {
          const { output, ending } = outcome;
          return renderResult(
            output.text(),
            output.truncated ? output.maxBytes : undefined,
            ending,
          );
        }
      }
    },
  });
}
