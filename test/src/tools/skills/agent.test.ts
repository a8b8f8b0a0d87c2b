/** End to end: an Agent on a ScriptedModel loads a skill, then reads one of its files. */
import { Agent } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { skillFile, skills } from 'golem/tools/skills';
import { cleanup, skillMd, tempDir, writeTree } from './support';

let root: string;
beforeAll(async () => {
  root = await tempDir();
  await writeTree(root, {
    'release-notes/SKILL.md': skillMd(
      { name: 'release-notes', description: 'Write release notes from a changelog.' },
      'Group changes under Added / Fixed. See template.md.',
    ),
    'release-notes/template.md': '## Added\n## Fixed\n',
  });
});
afterAll(() => cleanup(root));

test('an agent loads a skill and reads its template through the tools', async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'skill', args: { name: 'release-notes' } }]),
    toolCallResponse([
      { id: 'c2', name: 'skill_file', args: { name: 'release-notes', path: 'template.md' } },
    ]),
    textResponse('## Added\n- skills\n## Fixed\n'),
  ]);
  const agent = new Agent({ model, tools: [skills({ root }), skillFile({ root })] });
  const result = await agent.run('Write the release notes.');
  expect(result.output).toBe('## Added\n- skills\n## Fixed\n');
  expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['skill', 'skill_file']);
  expect(model.requests[0]?.tools[0]?.description).toContain(
    '<skill><name>release-notes</name><description>Write release notes from a changelog.</description></skill>',
  );
  const results = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  expect(results).toEqual([
    [
      '<skill_content name="release-notes">',
      'Group changes under Added / Fixed. See template.md.',
      '</skill_content>',
      `<skill_base_dir>${root}/release-notes</skill_base_dir>`,
      '<skill_files>',
      'template.md',
      '</skill_files>',
    ].join('\n'),
    '## Added\n## Fixed\n',
  ]);
});

test('an unknown skill name is fed back to the model, which corrects itself', async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'skill', args: { name: 'notes' } }]),
    toolCallResponse([{ id: 'c2', name: 'skill', args: { name: 'release-notes' } }]),
    textResponse('done'),
  ]);
  const agent = new Agent({ model, tools: [skills({ root })], toolRetries: 1 });
  const result = await agent.run('go');
  expect(result.output).toBe('done');
  const first = result.messages.find((m) => m.role === 'tool');
  expect(first?.content).toBe(
    'Your tool call was rejected: unknown skill "notes"; available skills: release-notes. Correct the arguments and call the tool again.',
  );
});
