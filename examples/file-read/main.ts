/**
 * File read: the `read_file` tool gives an agent read-only access to one workspace directory.
 * Paths are confined to the root (no absolute paths, `..`, `~` or symbolic links leading out),
 * only regular UTF-8 text files are read, and output is capped by bytes and lines. Path mistakes
 * come back to the model as corrections it can act on.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { fileRead } from 'golem/tools/fileread';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // A throwaway workspace, plus a secret just outside it.
  const base = await mkdtemp(join(tmpdir(), 'golem-file-read-example-'));
  const root = join(base, 'workspace');
  try {
    await mkdir(join(root, 'notes'), { recursive: true });
    await writeFile(join(root, 'notes', 'todo.md'), '# Todo\n- buy milk\n- write tests\n- ship\n');
    await writeFile(join(root, 'README.md'), 'Workspace for the example.\n');
    await writeFile(join(base, 'secret.txt'), 'do not read me');
    await symlink(join(base, 'secret.txt'), join(root, 'shortcut'));

    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'read_file', args: { path: '../secret.txt' } }]),
      toolCallResponse([{ id: 'c2', name: 'read_file', args: { path: 'shortcut' } }]),
      toolCallResponse([{ id: 'c3', name: 'read_file', args: { path: 'notes' } }]),
      toolCallResponse([
        { id: 'c4', name: 'read_file', args: { path: 'notes/todo.md', startLine: 2, endLine: 3 } },
      ]),
      toolCallResponse([{ id: 'c5', name: 'read_file', args: { path: 'notes/todo.md' } }]),
      textResponse('Two errands, then ship.'),
    ]);
    const agent = new Agent({
      model,
      tools: [fileRead({ root, maxLines: 3 })],
      toolRetries: 3, // path mistakes are corrections; allow a few
    });

    const result = await agent.run('What is on my todo list?');

    for (const message of result.messages) {
      if (message.role !== 'tool') continue;
      log(`${message.toolCallId ?? '?'}: ${JSON.stringify(message.content)}`);
    }
    log(`output: ${result.output}`);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
