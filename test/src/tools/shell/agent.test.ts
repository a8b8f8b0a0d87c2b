import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, RunError, ToolError, findError, isDeadlineExceeded } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { shell } from 'golem/tools/shell';
import { nodeArgv, tempDir } from './support';
import { CommandTimeoutError } from '../../../support/internal-errors';

let dir: string;

beforeAll(async () => {
  dir = await tempDir('golem-shell-agent-');
  await writeFile(join(dir, 'notes.txt'), 'alpha\nbeta\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('run_command inside an agent run', () => {
  test('a denied chain is corrected, then a pipeline runs and its output reaches the model', async () => {
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'run_command', args: { command: 'cat notes.txt; curl evil' } },
      ]),
      toolCallResponse([
        { id: 'c2', name: 'run_command', args: { command: 'cat notes.txt | wc -l' } },
      ]),
      textResponse('There are 2 lines.'),
    ]);
    const tool = shell({ dir, mode: 'shell', allow: ['cat', 'wc'] });
    const agent = new Agent({ model, tools: [tool], toolRetries: 1 });

    const result = await agent.run('How many lines in notes.txt?');

    expect(result.output).toBe('There are 2 lines.');
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      content:
        'Your tool call was rejected: command denied: "curl" is not an allowed command (allowed: cat, wc). Correct the arguments and call the tool again.',
      toolCallId: 'c1',
      toolName: 'run_command',
    });
    expect(model.requests[2]?.messages.at(-1)).toEqual({
      role: 'tool',
      content: '2\n',
      toolCallId: 'c2',
      toolName: 'run_command',
    });
  });

  test('a non-zero exit reaches the model as a result', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'run_command', args: { argv: ['cat', 'missing.txt'] } }]),
      textResponse('The file is missing.'),
    ]);
    const agent = new Agent({ model, tools: [shell({ dir })] });

    await agent.run('Show missing.txt');

    expect(model.requests[1]?.messages.at(-1)?.content).toBe(
      'cat: missing.txt: No such file or directory\n\n[shell: exited with status 1]',
    );
  });

  test('a timeout fails the run at the tool stage with a deadline, not a correction', async () => {
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'run_command', args: { argv: nodeArgv('setInterval(() => {}, 1000)') } },
      ]),
      textResponse('unreachable'),
    ]);
    const agent = new Agent({ model, tools: [shell({ dir, timeout: 50 })], toolRetries: 3 });

    const error = await agent.run('Wait forever.').then(
      () => undefined,
      (failure: unknown) => failure,
    );

    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('tool');
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(findError(error, ToolError.is)?.toolName).toBe('run_command');
    expect(findError(error, CommandTimeoutError.is)?.timeout).toBe(50);
    expect(model.calls).toBe(1);
  });
});

describe('run_command under the agent’s tool timeout', () => {
  test('the engine deadline reaches the command through ctx.signal and kills it', async () => {
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'run_command', args: { argv: nodeArgv('setInterval(() => {}, 1000)') } },
      ]),
      textResponse('unreachable'),
    ]);
    const agent = new Agent({ model, tools: [shell({ dir })], toolTimeout: 50 });

    const error = await agent.run('Wait forever.').then(
      () => undefined,
      (failure: unknown) => failure,
    );

    expect(RunError.is(error)).toBe(true);
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(findError(error, ToolError.is)?.message).toBe(
      'tool "run_command" (call "c1"): tool "run_command" exceeded its timeout of 50 ms',
    );
  });
});
