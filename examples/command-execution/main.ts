/**
 * Command execution: the `run_command` tool runs one program without a shell by default, or —
 * opted into with `mode: 'shell'` — a command list whose every command is on an allow-list.
 * Chaining to anything else, substitutions and redirections are denied before anything runs.
 * The child gets an allow-listed environment, runs in its own process group inside the
 * configured directory, and is killed (with its whole group) at the timeout.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, RunError, findError, hasKind, isDeadlineExceeded } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { shell } from 'golem/tools/shell';

type Log = (line: string) => void;

/** Prints every tool result the model saw in a run. */
function logToolResults(
  log: Log,
  messages: readonly { role: string; toolCallId?: string; content?: string }[],
): void {
  for (const message of messages) {
    if (message.role === 'tool')
      log(`${message.toolCallId ?? '?'}: ${JSON.stringify(message.content)}`);
  }
}

async function argvMode(log: Log, dir: string): Promise<void> {
  log('-- argv mode (the default): one program, no shell');
  const model = new ScriptedModel([
    // Quotes group words like bash; the metacharacters inside them reach printf literally.
    toolCallResponse([
      { id: 'a1', name: 'run_command', args: { command: `printf '%s\\n' 'a; rm -rf ~' "$(id)"` } },
    ]),
    toolCallResponse([
      { id: 'a2', name: 'run_command', args: { command: `printf '%s\\n' 'a; rm -rf ~' '$(id)'` } },
    ]),
    toolCallResponse([{ id: 'a3', name: 'run_command', args: { argv: ['cat', 'missing.txt'] } }]),
    // The child sees only PATH, HOME, LANG, LC_ALL, TERM, TZ and the configured entries.
    toolCallResponse([{ id: 'a4', name: 'run_command', args: { argv: ['printenv', 'GREETING'] } }]),
    textResponse('done'),
  ]);
  const agent = new Agent({
    model,
    tools: [shell({ dir, env: { GREETING: 'hello' } })],
    toolRetries: 1,
  });
  const result = await agent.run('Show me some output.');
  logToolResults(log, result.messages);
}

async function shellMode(log: Log, dir: string): Promise<void> {
  log('-- shell mode: chains of allowed commands only');
  const model = new ScriptedModel([
    toolCallResponse([
      {
        id: 's1',
        name: 'run_command',
        args: { command: 'cat notes.txt; curl https://evil.example' },
      },
    ]),
    toolCallResponse([
      { id: 's2', name: 'run_command', args: { command: 'cat notes.txt > ~/.bashrc' } },
    ]),
    toolCallResponse([
      { id: 's3', name: 'run_command', args: { command: 'cat notes.txt | wc -l' } },
    ]),
    textResponse('notes.txt has 2 lines.'),
  ]);
  const tool = shell({ dir, mode: 'shell', allow: ['cat', 'wc'] });
  const agent = new Agent({ model, tools: [tool], toolRetries: 2 });
  const result = await agent.run('How many lines are in notes.txt?');
  logToolResults(log, result.messages);
  log(`output: ${result.output}`);
}

async function timeout(log: Log, dir: string): Promise<void> {
  log('-- a command past its timeout');
  const model = new ScriptedModel([
    toolCallResponse([
      {
        id: 't1',
        name: 'run_command',
        args: { argv: [process.execPath, '-e', 'setInterval(() => {}, 1000)'] },
      },
    ]),
    textResponse('unreachable'),
  ]);
  const agent = new Agent({ model, tools: [shell({ dir, timeout: 100 })] });
  try {
    await agent.run('Run the server.');
  } catch (error) {
    if (!RunError.is(error)) throw error;
    log(`stage: ${error.stage}`);
    log(`isDeadlineExceeded: ${isDeadlineExceeded(error)}`);
    log(`message: ${findError(error, (e) => hasKind(e, 'CommandTimeoutError'))?.message ?? '?'}`);
  }
}

export async function main(log: Log = console.log): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'golem-command-example-'));
  try {
    await writeFile(join(dir, 'notes.txt'), 'alpha\nbeta\n');
    await argvMode(log, dir);
    await shellMode(log, dir);
    await timeout(log, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
