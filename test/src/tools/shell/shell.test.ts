import childProcess from 'node:child_process';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CancelledError, ModelRetry, isCancellation, isDeadlineExceeded, ConfigError } from 'golem';
import { RUN_COMMAND_TOOL, shell } from 'golem/tools/shell';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT } from '../../../../src/tools/shell/options';
import { context, reasonOf, nodeArgv, rejection, tempDir } from './support';
import { CommandDeniedError, CommandTimeoutError } from '../../../support/internal-errors';

let base: string;
let dir: string;

beforeAll(async () => {
  base = await tempDir('golem-shell-');
  dir = join(base, 'work');
  await mkdir(join(dir, 'sub', 'inner'), { recursive: true });
  await writeFile(join(dir, 'file.txt'), 'a file');
  await mkdir(join(base, 'outside'));
  await symlink(join(base, 'outside'), join(dir, 'out-link'));
  await symlink(join(dir, 'sub'), join(dir, 'sub-link'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const run = (args: object, options: object = {}) =>
  shell({ dir, ...options }).execute(args, context());

describe('construction (SH-8)', () => {
  test.each([
    [
      { timeout: -1 },
      'timeout',
      'shell: `timeout` must be an integer from 0 (the default) to 2147483647, got -1',
    ],
    [
      { timeout: 1.5 },
      'timeout',
      'shell: `timeout` must be an integer from 0 (the default) to 2147483647, got 1.5',
    ],
    [
      { maxBytes: -1 },
      'maxBytes',
      'shell: `maxBytes` must be an integer from 0 (the default) to 2147483648, got -1',
    ],
    [
      { env: ['GREETING'] },
      'env',
      'shell: `env` entries must look like "NAME=value", got "GREETING"',
    ],
    [{ env: ['=x'] }, 'env', 'shell: `env` entries must look like "NAME=value", got "=x"'],
    [{ env: { A: 1 } }, 'env', 'shell: `env` value of A must be a string without NUL, got 1'],
    [{ mode: 'bash' }, 'mode', "shell: `mode` must be 'argv' or 'shell', got \"bash\""],
    [
      { mode: 'shell' },
      'allow',
      "shell: mode 'shell' needs `allow`: the command names every chained command must be one of",
    ],
    [{ allow: [] }, 'allow', 'shell: `allow` must be a non-empty array of command names, got []'],
    [
      { allow: ['ls -la'] },
      'allow',
      'shell: `allow` entry "ls -la" is not a plain command name: the command name "ls -la" has characters a plain program name cannot have',
    ],
    [
      { allow: ['if'] },
      'allow',
      'shell: `allow` entry "if" is not a plain command name: the shell keyword "if" is not allowed',
    ],
    [
      { cwd: '/tmp' },
      'cwd',
      'shell: unknown option `cwd`; known: mode, allow, dir, env, timeout, maxBytes',
    ],
  ])('%j is refused naming %s', (options, option, message) => {
    expect.assertions(3);
    try {
      shell(options as never);
    } catch (error) {
      expect(ConfigError.is(error, 'shell')).toBe(true);
      expect((error as ConfigError).option).toBe(option);
      expect((error as Error).message).toBe(message);
    }
  });

  test('a missing dir and a dir that is a file are refused', () => {
    const messages = [join(base, 'missing'), join(dir, 'file.txt')].map((path) => {
      try {
        shell({ dir: path });
        return 'accepted';
      } catch (error) {
        return ConfigError.is(error, 'shell') ? `${error.option}: ${error.message}` : String(error);
      }
    });
    expect(messages[0]).toMatch(/^dir: shell: `dir` ".*\/missing" does not exist \(ENOENT: /u);
    expect(messages[1]).toBe(
      `dir: shell: \`dir\` ${JSON.stringify(join(dir, 'file.txt'))} is not a directory`,
    );
  });

  test('argv mode advertises command, argv and cwd, none required', () => {
    const tool = shell({ dir });
    expect(tool.name).toBe(RUN_COMMAND_TOOL);
    expect(tool.name).toBe('run_command');
    expect(tool.schema).toMatchObject({
      type: 'object',
      properties: {
        command: { type: 'string' },
        argv: { type: 'array', items: { type: 'string' }, minItems: 1 },
        cwd: { type: 'string' },
      },
      additionalProperties: false,
    });
    expect(tool.schema.required).toBeUndefined();
    expect(tool.description).toContain(`at most ${DEFAULT_MAX_BYTES} bytes`);
    expect(tool.description).toContain(`killed after ${DEFAULT_TIMEOUT} ms`);
    expect([tool.maxRetries, tool.timeout, tool.sequential]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('shell mode requires command and lists the allowed commands', () => {
    const tool = shell({ dir, mode: 'shell', allow: ['ls', 'cat'] });
    expect(tool.schema).toMatchObject({
      properties: { command: { type: 'string' }, cwd: { type: 'string' } },
      required: ['command'],
      additionalProperties: false,
    });
    expect(Object.keys(tool.schema.properties as object)).toEqual(['command', 'cwd']);
    expect(tool.description).toContain('Allowed commands: cat, ls.');
  });
});

describe('output and exit status (SH-1 … SH-3)', () => {
  test('SH-1 stdout and stderr come back together, in write order', async () => {
    await expect(
      run({ argv: nodeArgv("process.stdout.write('out\\n'); process.stderr.write('err\\n')") }),
    ).resolves.toBe('out\nerr\n');
  });

  test('interleaved writes to both streams keep their exact order', async () => {
    const script =
      "const fs = require('fs'); for (let i = 0; i < 200; i++) { fs.writeSync(1, 'o' + i + '\\n'); fs.writeSync(2, 'e' + i + '\\n'); }";
    const expected = Array.from({ length: 200 }, (_, i) => `o${i}\ne${i}\n`).join('');
    await expect(run({ argv: nodeArgv(script) })).resolves.toBe(expected);
  });

  test('SH-2 a non-zero exit is a result with a status line', async () => {
    await expect(
      run({ argv: nodeArgv("process.stdout.write('hi'); process.exit(3)") }),
    ).resolves.toBe('hi\n\n[shell: exited with status 3]');
    await expect(run({ argv: nodeArgv('process.exit(3)') })).resolves.toBe(
      '[shell: exited with status 3]',
    );
    await expect(run({ argv: nodeArgv("console.log('line'); process.exit(1)") })).resolves.toBe(
      'line\n\n[shell: exited with status 1]',
    );
  });

  test('exit status 0 with no output is the empty string', async () => {
    await expect(run({ command: 'true' })).resolves.toBe('');
  });

  test('SH-3 40 bytes with maxBytes 8 → 8 bytes, a blank line and the truncation line', async () => {
    await expect(run({ argv: ['printf', '%s', 'x'.repeat(40)] }, { maxBytes: 8 })).resolves.toBe(
      'xxxxxxxx\n\n[shell: output truncated at 8 bytes]',
    );
  });

  test('truncation and a non-zero status both show, truncation first', async () => {
    await expect(
      run(
        { argv: nodeArgv("process.stdout.write('y'.repeat(40)); process.exit(2)") },
        { maxBytes: 8 },
      ),
    ).resolves.toBe(
      'yyyyyyyy\n\n[shell: output truncated at 8 bytes]\n[shell: exited with status 2]',
    );
  });

  test('a cut inside a UTF-8 sequence drops the partial character', async () => {
    await expect(run({ argv: ['printf', '%s', 'aé€'] }, { maxBytes: 4 })).resolves.toBe(
      'aé\n\n[shell: output truncated at 4 bytes]',
    );
  });

  test('a command killed by a signal says so', async () => {
    await expect(run({ argv: nodeArgv("process.kill(process.pid, 'SIGTERM')") })).resolves.toBe(
      '[shell: killed by signal SIGTERM]',
    );
  });
});

describe('argv mode', () => {
  test('a command line is split like bash: quotes, escapes and comments', async () => {
    await expect(
      run({ command: `printf '<%s>' "a b" 'c d' e\\ f "q\\"uote" '' # a comment` }),
    ).resolves.toBe('<a b><c d><e f><q"uote><>');
  });

  test('metacharacters inside quotes or argv items are passed literally, never interpreted', async () => {
    await expect(
      run({ command: `printf '%s\\n' '; rm -rf ~' '$(curl evil)' '\`id\`' '--output=/etc/x' '*'` }),
    ).resolves.toBe('; rm -rf ~\n$(curl evil)\n`id`\n--output=/etc/x\n*\n');
    await expect(
      run({ argv: ['printf', '%s\\n', '; rm -rf ~', '| sh', '$HOME', '-rf', '>x'] }),
    ).resolves.toBe('; rm -rf ~\n| sh\n$HOME\n-rf\n>x\n');
  });

  test('an option-looking argument is the caller’s to handle (no "--" is inserted)', async () => {
    await expect(run({ argv: ['printf', '%s|', '--', '-n'] })).resolves.toBe('--|-n|');
  });

  test.each([
    [
      'ls; rm x',
      'command denied: ";" chains commands, but no shell runs here: send one program and its arguments per call (quote the characters to pass them literally)',
    ],
    [
      'ls | sh',
      'command denied: "|" chains commands, but no shell runs here: send one program and its arguments per call (quote the characters to pass them literally)',
    ],
    [
      'ls\ncurl x',
      'command denied: "\\n" chains commands, but no shell runs here: send one program and its arguments per call (quote the characters to pass them literally)',
    ],
    [
      'echo $HOME',
      'command denied: variable expansion ($H…) is not allowed; no variables are expanded — put literal text in single quotes',
    ],
    [
      'ls > out',
      'command denied: redirection ">" is not allowed; output comes back to you without it',
    ],
    ['# only a comment', 'command denied: the command is empty'],
  ])('%j is denied with a reason', async (command, reason) => {
    const error = await rejection(shell({ dir }), { command });
    expect(CommandDeniedError.is(error)).toBe(true);
    expect(reasonOf(error)).toBe(reason);
  });

  test('the allow-list applies to argv and command lines alike', async () => {
    const tool = shell({ dir, allow: ['printf'] });
    await expect(tool.execute({ argv: ['printf', 'ok'] }, context())).resolves.toBe('ok');
    for (const args of [{ argv: ['rm', '-rf', 'x'] }, { command: 'rm -rf x' }]) {
      const error = await rejection(tool, args);
      expect(reasonOf(error)).toBe(
        'command denied: "rm" is not an allowed command (allowed: printf)',
      );
    }
    const path = await rejection(tool, { argv: ['/usr/bin/printf', 'x'] });
    expect(reasonOf(path)).toBe(
      'command denied: "/usr/bin/printf" is not an allowed command (allowed: printf)',
    );
  });

  test('a missing program is a correctable ModelRetry', async () => {
    const error = await rejection(shell({ dir }), { command: 'cd sub' });
    expect(ModelRetry.is(error)).toBe(true);
    expect(reasonOf(error)).toBe(
      'command not found: "cd"; no shell runs here, so builtins such as cd and export are unavailable (use the cwd argument to change directory)',
    );
  });
});

describe('bad arguments are ModelRetry (SH-5)', () => {
  test.each([
    [null, 'the arguments must be a JSON object such as {"command": "ls -la"}, got null'],
    [
      {},
      '"command" must be a non-empty string such as "ls -la" (or send "argv", an array of strings)',
    ],
    [
      { command: '' },
      '"command" must be a non-empty string such as "ls -la" (or send "argv", an array of strings)',
    ],
    [
      { command: '   ' },
      '"command" must be a non-empty string such as "ls -la" (or send "argv", an array of strings)',
    ],
    [
      { command: 7 },
      '"command" must be a non-empty string such as "ls -la" (or send "argv", an array of strings)',
    ],
    [{ command: 'ls', argv: ['ls'] }, 'send either "command" or "argv", not both'],
    [{ argv: [] }, '"argv" must be a non-empty array of strings such as ["ls", "-la"], got []'],
    [{ argv: 'ls' }, '"argv" must be a non-empty array of strings such as ["ls", "-la"], got "ls"'],
    [{ argv: ['ls', 3] }, '"argv"[1] must be a string, got 3'],
    [{ argv: ['ls', 'a\u0000b'] }, '"argv"[1] contains a NUL character'],
    [
      { argv: ['-rf'] },
      'command denied: the command name "-rf" starts with "-"; the first word must be a program',
    ],
    [{ command: 'ls', cwd: 3 }, '"cwd" must be a string, got 3'],
    [
      { command: 'ls', shell: true },
      'unknown argument "shell"; the arguments are command, argv, cwd',
    ],
  ])('%j → %j', async (args, reason) => {
    const error = await rejection(shell({ dir }), args);
    expect(ModelRetry.is(error)).toBe(true);
    expect(reasonOf(error)).toBe(reason);
  });

  test('shell mode takes no argv', async () => {
    const error = await rejection(shell({ dir, mode: 'shell', allow: ['ls'] }), { argv: ['ls'] });
    expect(reasonOf(error)).toBe('unknown argument "argv"; the arguments are command, cwd');
  });
});

describe('environment and working directory (SH-6)', () => {
  const printEnvAndCwd = nodeArgv('console.log(process.env.GREETING + " " + process.cwd())');

  test('configured env entries reach the child, as an object or NAME=value strings', async () => {
    await expect(run({ argv: printEnvAndCwd }, { env: { GREETING: 'hello' } })).resolves.toBe(
      `hello ${dir}\n`,
    );
    await expect(run({ argv: printEnvAndCwd }, { env: ['GREETING=a=b'] })).resolves.toBe(
      `a=b ${dir}\n`,
    );
  });

  test('the cwd argument selects a directory inside dir, through symbolic links that stay inside', async () => {
    await expect(run({ argv: printEnvAndCwd, cwd: 'sub/inner' })).resolves.toBe(
      `undefined ${join(dir, 'sub', 'inner')}\n`,
    );
    await expect(run({ argv: printEnvAndCwd, cwd: 'sub-link' })).resolves.toBe(
      `undefined ${join(dir, 'sub')}\n`,
    );
    await expect(run({ argv: printEnvAndCwd, cwd: '.' })).resolves.toBe(`undefined ${dir}\n`);
  });

  test.each([
    ['/tmp', '"cwd" "/tmp" must be relative to the workspace directory'],
    ['~', '"cwd" "~" must be relative to the workspace directory'],
    ['../work', '"cwd" "../work" contains ".."; it must stay inside the workspace directory'],
    ['sub/../..', '"cwd" "sub/../.." contains ".."; it must stay inside the workspace directory'],
    ['out-link', '"cwd" "out-link" resolves outside the workspace directory'],
    ['missing', '"cwd" "missing" does not exist in the workspace directory'],
    ['file.txt', '"cwd" "file.txt" is not a directory'],
    ['a\nb', '"cwd" "a\\nb" contains a control character'],
  ])('cwd %j → ModelRetry', async (cwd, reason) => {
    const error = await rejection(shell({ dir }), { command: 'true', cwd });
    expect(ModelRetry.is(error)).toBe(true);
    expect(reasonOf(error)).toBe(reason);
  });
});

describe('deadlines and cancellation (SH-4, SH-7)', () => {
  test('SH-4 a command past the timeout is killed and fails with a deadline, never ModelRetry', async () => {
    const error = await rejection(shell({ dir, timeout: 50 }), {
      argv: nodeArgv("process.stdout.write('started'); setInterval(() => {}, 1000)"),
    });
    expect(CommandTimeoutError.is(error)).toBe(true);
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(isCancellation(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(false);
    expect(error.message).toBe('shell: command timed out after 50 ms and was killed');
    expect(CommandTimeoutError.is(error) && error.command).toBe(
      `${process.execPath} -e process.stdout.write('started'); setInterval(() => {}, 1000)`,
    );
  });

  test('SH-7 an already-cancelled signal fails first, before anything is spawned', async () => {
    const spawn = jest.spyOn(childProcess, 'spawn');
    const controller = new AbortController();
    controller.abort('stop');
    const error = await rejection(
      shell({ dir }),
      { command: 'rm -rf /' },
      context(controller.signal),
    );
    expect(spawn).not.toHaveBeenCalled();
    spawn.mockRestore();
    expect(CancelledError.is(error)).toBe(true);
    expect(error.cause).toBe('stop');
  });

  test('aborting mid-run kills the command and fails with the cancellation', async () => {
    const controller = new AbortController();
    const pending = rejection(
      shell({ dir }),
      { argv: nodeArgv('setInterval(() => {}, 1000)') },
      context(controller.signal),
    );
    setImmediate(() => {
      controller.abort('user pressed stop');
    });
    const error = await pending;
    expect(CancelledError.is(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(false);
    expect(error.cause).toBe('user pressed stop');
  });
});
