/**
 * Agent skills: folders holding a SKILL.md (YAML front matter + Markdown instructions) and any
 * files they need. `skills({ root })` advertises the catalog in its tool description and loads one
 * skill's instructions on demand; `skillFile({ root })` reads a file inside a skill folder. Both
 * stay inside the skills root. The model here is scripted, so the run is offline and repeatable.
 */
import { join } from 'node:path';
import { realpathSync } from 'node:fs';
import { Agent } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { skillFile, skills } from 'golem/tools/skills';

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const root = join(__dirname, 'skills'); // an absolute path: the tools never resolve against the cwd
  const skill = skills({ root });
  const file = skillFile({ root });

  log('catalog advertised in the skill tool description:');
  for (const line of skill.description.split('\n').filter((l) => l.startsWith('<')))
    log(`  ${line}`);

  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'skill', args: { name: 'release-notes' } }]),
    toolCallResponse([
      { id: 'c2', name: 'skill_file', args: { name: 'release-notes', path: 'template.md' } },
    ]),
    toolCallResponse([{ id: 'c3', name: 'skill', args: { name: 'changelog' } }]),
    textResponse('## v1.2.0\n\n### Added\n- Added agent skills.\n\n### Fixed\n- Fixed a typo.'),
  ]);
  const agent = new Agent({ model, tools: [skill, file], toolRetries: 1 });
  const result = await agent.run('Write release notes for: skills tool, typo fix.');

  // The base directory is an absolute path; print it relative to the repository.
  const base = realpathSync(__dirname);
  for (const message of result.messages.filter((m) => m.role === 'tool')) {
    log(`--- ${message.toolName ?? ''} [${message.toolCallId ?? ''}]`);
    log((message.content ?? '').split(base).join('examples/skills'));
  }
  log('--- output');
  log(result.output);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
