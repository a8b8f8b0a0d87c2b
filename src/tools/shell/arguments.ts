import { showValue } from '../../core/kit/error-base';
import { ModelRetry } from '../../core/errors/errors';
import { isArrayValue, isRecord } from '../../core/kit/guards';
import { CommandDeniedError } from './errors';
import type { ResolvedShellOptions } from './options';
import { MAX_WORDS, commandNameProblem, parseArgvCommand, parseShellCommand } from './policy';

/** Largest argv array accepted, in UTF-16 code units over all arguments. */
export const MAX_ARGV_LENGTH = 131_072;

/** One validated call. Internal. */
export interface CommandCall {
  /** The command as shown in errors. */
  display: string;
  file: string;
  args: string[];
  cwd: string | undefined;
}

function keys(options: ResolvedShellOptions): string[] {
  return options.mode === 'shell' ? ['command', 'cwd'] : ['command', 'argv', 'cwd'];
}

function argvArray(value: unknown, allow: ReadonlySet<string> | undefined): string[] {
  if (!isArrayValue(value) || value.length === 0) {
    throw new ModelRetry(
      `"argv" must be a non-empty array of strings such as ["ls", "-la"], got ${showValue(value)}`,
    );
  }
  const argv: string[] = [];
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'string') {
      throw new ModelRetry(`"argv"[${index}] must be a string, got ${showValue(item)}`);
    }
    if (item.includes('\0')) throw new ModelRetry(`"argv"[${index}] contains a NUL character`);
    argv.push(item);
  }
  const display = argv.join(' ');
  const length = argv.reduce((sum, item) => sum + item.length, 0);
  if (argv.length > MAX_WORDS || length > MAX_ARGV_LENGTH) {
    throw new CommandDeniedError(
      display.slice(0, 200),
      `"argv" has ${argv.length} items and ${length} characters (limits ${MAX_WORDS} and ${MAX_ARGV_LENGTH})`,
    );
  }
  const problem = commandNameProblem(argv[0] ?? '', allow);
  if (problem !== undefined) throw new CommandDeniedError(display, problem);
  return argv;
}

/** Validates one call's arguments; mistakes are {@link ModelRetry}s, refusals `CommandDeniedError`s. */
export function parseCall(raw: unknown, options: ResolvedShellOptions): CommandCall {
  const allowed = keys(options);
  if (!isRecord(raw)) {
    throw new ModelRetry(
      `the arguments must be a JSON object such as {"command": "ls -la"}, got ${showValue(raw)}`,
    );
  }
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) {
      throw new ModelRetry(
        `unknown argument ${JSON.stringify(key)}; the arguments are ${allowed.join(', ')}`,
      );
    }
  }
  const cwd = raw.cwd;
  if (cwd !== undefined && typeof cwd !== 'string') {
    throw new ModelRetry(`"cwd" must be a string, got ${showValue(cwd)}`);
  }
  const { command, argv } = raw;
  if (command !== undefined && argv !== undefined) {
    throw new ModelRetry('send either "command" or "argv", not both');
  }
  if (argv !== undefined) {
    const list = argvArray(argv, options.allow);
    return { display: list.join(' '), file: list[0] ?? '', args: list.slice(1), cwd };
  }
  if (typeof command !== 'string' || command.trim() === '') {
    throw new ModelRetry(
      options.mode === 'shell'
        ? '"command" must be a non-empty string such as "ls -la"'
        : '"command" must be a non-empty string such as "ls -la" (or send "argv", an array of strings)',
    );
  }
  if (options.mode === 'shell') {
    const allow = options.allow ?? new Set<string>();
    const decision = parseShellCommand(command, allow);
    if (!decision.ok) throw new CommandDeniedError(command, decision.reason);
    return { display: command, file: '/bin/sh', args: ['-c', decision.value], cwd };
  }
  const decision = parseArgvCommand(command, options.allow);
  if (!decision.ok) throw new CommandDeniedError(command, decision.reason);
  const [file = '', ...args] = decision.value;
  return { display: command, file, args, cwd };
}
