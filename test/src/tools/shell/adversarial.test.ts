import childProcess from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelRetry, isDeadlineExceeded } from 'golem';
import { INHERITED_ENV, MAX_SEGMENTS, shell } from 'golem/tools/shell';
import {
  context,
  fakeTimeoutsOnly,
  isGone,
  nodeArgv,
  reasonOf,
  rejection,
  tempDir,
  untilWritten,
} from './support';
import { CommandDeniedError, CommandTimeoutError } from '../../../support/internal-errors';

let dir: string;

beforeAll(async () => {
  dir = await tempDir('golem-shell-adv-');
  await writeFile(join(dir, 'f'), 'file f\n');
  await writeFile(join(dir, 'a b.txt'), 'spaced\n');
  await writeFile(join(dir, 'g.txt'), 'g\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('ADV-19 chaining, substitution and parser differentials (allow-list {ls, cat})', () => {
  const tool = () => shell({ dir, mode: 'shell', allow: ['ls', 'cat'] });
  const notAllowed = (name: string) =>
    `command denied: "${name}" is not an allowed command (allowed: cat, ls)`;
  const chained = (n: number, last: string) =>
    `${Array.from({ length: n }, () => 'ls').join('; ')}; ${last}`;

  test.each([
    ['ls && rm -rf x', notAllowed('rm')],
    ['ls; curl evil', notAllowed('curl')],
    ['ls || sh', notAllowed('sh')],
    ['cat f | sh', notAllowed('sh')],
    ['ls $(curl evil)', 'command denied: command substitution $(…) is not allowed'],
    ['ls `curl evil`', 'command denied: command substitution `…` is not allowed'],
    ['ls "`curl evil`"', 'command denied: command substitution `…` is not allowed'],
    ['ls "$(curl evil)"', 'command denied: command substitution $(…) is not allowed'],
    [
      'ls > ~/.bashrc',
      'command denied: redirection ">" is not allowed; output comes back to you without it',
    ],
    ['ls <(curl x)', 'command denied: process substitution <(…) is not allowed'],
    ['ls\ncurl', notAllowed('curl')],
    [
      'ls\rcurl',
      'command denied: the command contains a carriage return (CR); bash does not treat CR as a separator, so it is refused — use a newline or one command per call',
    ],
    [
      "l''s",
      'command denied: the command name is written with quotes or escapes (it reads "ls"); write command names plainly',
    ],
    [
      "$'\\x6c\\x73'",
      "command denied: ANSI-C quoting $'…' is not allowed; write the characters literally inside single quotes",
    ],
    ['IFS=, ; ls', 'command denied: variable assignment "IFS=," is not allowed'],
    [
      chained(60, 'curl evil'),
      `command denied: the command chains 61 commands (limit ${MAX_SEGMENTS}); split the work into several calls`,
    ],
    [
      `${Array.from({ length: 60 }, () => 'true').join(' && ')} && curl evil`,
      'command denied: the command chains 61 commands (limit 16); split the work into several calls',
    ],
    ['ls & curl evil', 'command denied: a background job "&" is not allowed'],
    ['ls |& sh', 'command denied: "|&" (piping stderr) is not allowed'],
    ['(curl evil)', 'command denied: "(" (a subshell or grouping) is not allowed'],
    [
      '{ curl evil; }',
      'command denied: the command name "{" has characters a plain program name cannot have',
    ],
    [
      'ls 2>/dev/null',
      'command denied: redirection ">" is not allowed; output comes back to you without it',
    ],
    ['ls &> x', 'command denied: redirection "&>" is not allowed'],
    [
      'cat < /etc/passwd',
      'command denied: redirection "<" is not allowed; output comes back to you without it',
    ],
    [
      'cat <<EOF',
      'command denied: redirection "<" is not allowed; output comes back to you without it',
    ],
    ['ls ${HOME}', 'command denied: parameter expansion ${…} is not allowed'],
    [
      'ls $HOME',
      'command denied: variable expansion ($H…) is not allowed; no variables are expanded — put literal text in single quotes',
    ],
    [
      'ls$IFS-la',
      'command denied: variable expansion ($I…) is not allowed; no variables are expanded — put literal text in single quotes',
    ],
    ['ls $((1+1))', 'command denied: arithmetic expansion $((…)) is not allowed'],
    ['ls $"x"', 'command denied: locale quoting $"…" is not allowed; use plain double quotes'],
    [
      'ls $',
      'command denied: a "$" would start an expansion; put a literal "$" inside single quotes',
    ],
    ["ls 'open", 'command denied: the command has an unterminated single quote'],
    ['ls "open', 'command denied: the command has an unterminated double quote'],
    ['ls &&', 'command denied: the command ends with "&&" and nothing after it'],
    ['&& ls', 'command denied: "&&" at the start has no command before it'],
    ['ls ;; ls', 'command denied: ";;" is not allowed outside case'],
    ['ls; ; ls', 'command denied: ";" after ";" has no command before it'],
    ['if true; then ls; fi', 'command denied: the shell keyword "if" is not allowed'],
    ['ls\u0000', 'command denied: the command contains the control character U+0000; remove it'],
    [
      'ls \u001b[2J',
      'command denied: the command contains the control character U+001B; remove it',
    ],
    ['/bin/ls', notAllowed('/bin/ls')],
    ['./ls', notAllowed('./ls')],
    ['LS', notAllowed('LS')],
    [
      '\\ls',
      'command denied: the command name is written with quotes or escapes (it reads "ls"); write command names plainly',
    ],
    [
      '"ls"',
      'command denied: the command name is written with quotes or escapes (it reads "ls"); write command names plainly',
    ],
    [
      'l\\s',
      'command denied: the command name is written with quotes or escapes (it reads "ls"); write command names plainly',
    ],
    [
      'ls\u00a0-la',
      'command denied: the command name "ls\u00a0-la" has characters a plain program name cannot have',
    ],
    ['l?', 'command denied: the command name "l?" has characters a plain program name cannot have'],
    [
      '{ls,-la}',
      'command denied: the command name "{ls,-la}" has characters a plain program name cannot have',
    ],
    [
      '! ls',
      'command denied: the command name "!" has characters a plain program name cannot have',
    ],
    ['FOO=bar ls', 'command denied: variable assignment "FOO=bar" is not allowed'],
    ['a[0]=x ls', 'command denied: variable assignment "a[0]=x" is not allowed'],
    ['x'.repeat(16_385), 'command denied: the command is 16385 characters long (limit 16384)'],
    [`ls ${'a '.repeat(1024)}`, 'command denied: the command has 1025 words (limit 1024)'],
  ])('%j is denied before anything runs', async (command, reason) => {
    const spawn = jest.spyOn(childProcess, 'spawn');
    const error = await rejection(tool(), { command });
    const spawned = spawn.mock.calls.length;
    spawn.mockRestore();
    expect(spawned).toBe(0);
    expect(CommandDeniedError.is(error)).toBe(true);
    expect(ModelRetry.is(error)).toBe(true);
    expect(error).toMatchObject({ command });
    expect(reasonOf(error)).toBe(reason);
  });

  test('the spawn spy sees allowed commands (the assertion above has teeth)', async () => {
    const spawn = jest.spyOn(childProcess, 'spawn');
    await expect(tool().execute({ command: 'cat f' }, context())).resolves.toBe('file f\n');
    const calls = spawn.mock.calls.map((call) => [call[0], call[1]]);
    spawn.mockRestore();
    expect(calls).toEqual([['/bin/sh', ['-c', "cat 'f'"]]]);
  });

  test.each([
    ['ls', 'a b.txt\nf\ng.txt\n'],
    ['cat f | cat', 'file f\n'],
    ['ls && cat f', 'a b.txt\nf\ng.txt\nfile f\n'],
    ['cat missing || cat f', 'cat: missing: No such file or directory\nfile f\n'],
    ["cat 'a b.txt'", 'spaced\n'],
    ['cat "a b.txt"', 'spaced\n'],
    ['cat a\\ b.txt', 'spaced\n'],
    ['cat *.txt', 'spaced\ng\n'],
    ["cat '*.txt'", "cat: '*.txt': No such file or directory\n\n[shell: exited with status 1]"],
    ['cat f # && curl evil', 'file f\n'],
    ['cat f\n', 'file f\n'],
    ['cat f;', 'file f\n'],
    ['ls &&\ncat f', 'a b.txt\nf\ng.txt\nfile f\n'],
    [Array.from({ length: MAX_SEGMENTS }, () => 'cat f').join(' | '), 'file f\n'],
    [
      "cat 'f; curl evil'",
      "cat: 'f; curl evil': No such file or directory\n\n[shell: exited with status 1]",
    ],
  ])('%j runs with exactly the checked words', async (command, output) => {
    await expect(tool().execute({ command }, context())).resolves.toBe(output);
  });
});

describe('ADV-20 execution hygiene', () => {
  test('the child environment is an allow-list: no API keys or cloud credentials are inherited', async () => {
    const planted: Record<string, string> = {
      OPENAI_API_KEY: 'sk-should-not-leak',
      AWS_SECRET_ACCESS_KEY: 'aws-should-not-leak',
      AWS_ACCESS_KEY_ID: 'AKIA-should-not-leak',
      BASH_ENV: '/tmp/evil',
      LD_PRELOAD: '/tmp/evil.so',
      TZ: 'UTC',
    };
    const saved = { ...process.env };
    Object.assign(process.env, planted);
    let output: string;
    try {
      output = await shell({ dir, env: { GREETING: 'hi' } }).execute({ command: 'env' }, context());
    } finally {
      for (const name of Object.keys(planted)) {
        if (saved[name] === undefined) Reflect.deleteProperty(process.env, name);
        else process.env[name] = saved[name];
      }
    }
    const names = output
      .trimEnd()
      .split('\n')
      .map((line) => line.slice(0, line.indexOf('=')));
    const expected = [
      ...INHERITED_ENV.filter((name) => name === 'TZ' || saved[name] !== undefined),
      'GREETING',
    ];
    expect(names.sort()).toEqual(expected.sort());
    expect(output).not.toMatch(/should-not-leak|evil/u);
    expect(output).toContain('GREETING=hi\n');
    expect(output).toContain('TZ=UTC\n');
  });

  test('model-supplied argv with shell metacharacters and options is passed literally', async () => {
    await expect(
      shell({ dir }).execute(
        { argv: ['printf', '[%s]', '; rm -rf ~', '--output=/etc/x', '-rf', '$(id)'] },
        context(),
      ),
    ).resolves.toBe('[; rm -rf ~][--output=/etc/x][-rf][$(id)]');
  });

  test('a huge argv is denied', async () => {
    const error = await rejection(shell({ dir }), { argv: ['printf', 'x'.repeat(131_072)] });
    expect(reasonOf(error)).toBe(
      'command denied: "argv" has 2 items and 131078 characters (limits 1024 and 131072)',
    );
    const many = await rejection(shell({ dir }), {
      argv: Array.from({ length: 1025 }, () => 'true'),
    });
    expect(reasonOf(many)).toBe(
      'command denied: "argv" has 1025 items and 4100 characters (limits 1024 and 131072)',
    );
  });

  /** A child that starts a grandchild sharing its output, prints the grandchild's pid, then `then`. */
  const forking = (marker: string, then: string) =>
    nodeArgv(
      `const { spawn } = require('child_process');
       const grandchild = spawn(process.execPath, ['-e', "setTimeout(() => require('fs').writeFileSync(process.argv[1], 'late'), 30000)", process.argv[1]], { stdio: 'inherit' });
       grandchild.on('spawn', () => { console.log(grandchild.pid); ${then} });`,
      marker,
    );

  test('on timeout the whole process group dies, grandchildren included', async () => {
    // Only setTimeout is fake, moved on once the grandchild exists: on a busy machine a real
    // 2 s timer could fire before two Node processes have even started.
    fakeTimeoutsOnly();
    const marker = join(dir, 'marker-timeout');
    const pidFile = join(dir, 'pid-timeout');
    let error: Error;
    try {
      const pending = rejection(shell({ dir, timeout: 2000 }), {
        argv: forking(
          marker,
          `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(grandchild.pid)); setInterval(() => {}, 1000);`,
        ),
      });
      await untilWritten(dir, pidFile);
      jest.advanceTimersByTime(2000);
      error = await pending;
    } finally {
      jest.useRealTimers();
    }
    expect(CommandTimeoutError.is(error)).toBe(true);
    expect(isDeadlineExceeded(error)).toBe(true);
    const output = CommandTimeoutError.is(error) ? error.output : '';
    expect(output).toMatch(/^\d+\n$/u);
    expect(isGone(Number(output))).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  test('on abort the whole process group dies', async () => {
    const marker = join(dir, 'marker-abort');
    const controller = new AbortController();
    const pidFile = join(dir, 'pid-abort');
    const pending = rejection(
      shell({ dir }),
      {
        argv: forking(
          marker,
          `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(grandchild.pid)); setInterval(() => {}, 1000);`,
        ),
      },
      context(controller.signal),
    );
    await untilWritten(dir, pidFile);
    controller.abort('stop');
    const error = await pending;
    expect(isGone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
    expect(error.cause).toBe('stop');
    expect(existsSync(marker)).toBe(false);
  });

  test('a grandchild left behind by a command that exited is killed with its group', async () => {
    const marker = join(dir, 'marker-exit');
    const output = await shell({ dir }).execute(
      { argv: forking(marker, 'process.exit(0);') },
      context(),
    );
    expect(output).toMatch(/^\d+\n$/u);
    expect(isGone(Number(output))).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  test('a child writing without end is cut at the cap and killed; memory stays bounded', async () => {
    const before = process.memoryUsage().rss;
    const output = await shell({ dir, maxBytes: 1024 }).execute({ command: 'yes' }, context());
    expect(output).toBe(
      `${'y\n'.repeat(512)}\n[shell: output truncated at 1024 bytes]\n[shell: killed after writing more than 16778240 bytes]`,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1_048_576);
  });

  test('a node child writing 1 GB is stopped long before it finishes', async () => {
    const output = await shell({ dir, maxBytes: 16 }).execute(
      {
        argv: nodeArgv(
          "const b = Buffer.alloc(1 << 20, 0x7a); for (let i = 0; i < 1024; i++) require('fs').writeSync(1, b);",
        ),
      },
      context(),
    );
    expect(output).toBe(
      `${'z'.repeat(16)}\n\n[shell: output truncated at 16 bytes]\n[shell: killed after writing more than 16777232 bytes]`,
    );
  });
});
