import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, RunError, ToolError, findError } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { fileRead } from 'golem/tools/fileread';
import { tempDir } from './support';
import { UnsupportedContentError } from '../../../support/internal-errors';

let root: string;

beforeAll(async () => {
  root = await tempDir('golem-fileread-agent-');
  await mkdir(join(root, 'notes'));
  await writeFile(join(root, 'notes', 'todo.md'), '- buy milk\n- write tests\n- ship\n');
  await writeFile(join(root, 'logo.png'), Buffer.from('\x89PNG\r\n\x1a\n\0\0', 'latin1'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('read_file inside an agent run', () => {
  test('a read, a corrected traversal attempt, then a ranged read feed the model exact texts', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'read_file', args: { path: '../etc/passwd' } }]),
      toolCallResponse([
        { id: 'c2', name: 'read_file', args: { path: 'notes/todo.md', startLine: 2, endLine: 2 } },
      ]),
      textResponse('Next: write tests.'),
    ]);
    const agent = new Agent({ model, tools: [fileRead({ root })], toolRetries: 1 });

    const result = await agent.run('What is the second item?');

    expect(result.output).toBe('Next: write tests.');
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['read_file']);
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      content:
        'Your tool call was rejected: path "../etc/passwd" contains a ".." segment; paths must stay inside the workspace root. Correct the arguments and call the tool again.',
      toolCallId: 'c1',
      toolName: 'read_file',
    });
    expect(model.requests[2]?.messages.at(-1)).toEqual({
      role: 'tool',
      content: '- write tests\n',
      toolCallId: 'c2',
      toolName: 'read_file',
    });
  });

  test('a binary file fails the run at the tool stage, not as a correction', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'read_file', args: { path: 'logo.png' } }]),
      textResponse('unreachable'),
    ]);
    const agent = new Agent({ model, tools: [fileRead({ root })], toolRetries: 3 });

    const error = await agent.run('Show the logo.').then(
      () => undefined,
      (failure: unknown) => failure,
    );

    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('tool');
    expect(findError(error, ToolError.is)?.toolName).toBe('read_file');
    expect(findError(error, UnsupportedContentError.is)?.contentType).toBe('image/png');
    expect(model.calls).toBe(1);
  });
});
