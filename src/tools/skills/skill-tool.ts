import { join } from 'node:path';
import { throwIfCancelled } from '../../core/errors/cancellation';
import type { Tool } from '../../core/tool/tool';
import { defineTool } from '../../core/tool/define-tool';
import { availableNames, findSkill, stringArgs } from './arguments';
import { loadSkillCatalog, SKILL_FILE, type SkillCatalog, type SkillEntry } from './catalog';
import { errorCode, openConfined, readAtMost, utf8Prefix } from './confine';
import { InvalidSkillError } from './errors';
import { FRONT_MATTER_LIMIT, splitSkillFile } from './front-matter';
import type { SkillsOptions } from './options';
import { renderCatalog, renderSkill } from './render';
import { listSkillFiles } from './skill-files';

/** The name of the tool built by {@link skills}. */
export const SKILL_TOOL = 'skill';

const EXAMPLE = '{"name": "<skill name>"}';

/**
 * The `skill` tool: discovers the skills under the roots at construction (invalid skills and an
 * empty catalog fail construction), advertises them in its description as an
 * `<available_skills>` catalog, and on a call returns the named skill's instructions in
 * `<skill_content>`, its base directory and a `<skill_files>` list. Unknown names are a
 * `ModelRetry` listing the available ones. Everything it reads stays inside the skills roots.
 */
export function skills(options: SkillsOptions): Tool {
  const catalog = loadSkillCatalog(options);
  return defineTool({
    name: SKILL_TOOL,
    description: [
      'Loads an agent skill: specialised instructions, plus the files that come with it.',
      "When a task matches a skill's description, call this tool with the skill's name first, then follow its instructions.",
      renderCatalog(catalog),
    ].join('\n'),
    schema: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          description: `The skill to load; one of: ${availableNames(catalog)}`,
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    execute: async (args, ctx) => {
      throwIfCancelled(ctx.signal);
      const { name } = stringArgs(args, ['name'], EXAMPLE, catalog) as { name: string };
      const skill = findSkill(catalog, name);
      const body = await readBody(catalog, skill);
      throwIfCancelled(ctx.signal);
      const files = await listSkillFiles(skill.dir, ctx.signal);
      return renderSkill(skill.name, body, skill.dir, files);
    },
  });
}

/** Reads the skill's body afresh, confined to its folder, capped at `maxBytes` with a marker. */
async function readBody(catalog: SkillCatalog, skill: SkillEntry): Promise<string> {
  const path = join(skill.dir, SKILL_FILE);
  let opened: Awaited<ReturnType<typeof openConfined>>;
  try {
    opened = await openConfined(skill.dir, path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') {
      throw new InvalidSkillError(path, 'no longer exists', { cause: error });
    }
    throw error;
  }
  if (opened.outside) {
    throw new InvalidSkillError(path, 'is a symbolic link that resolves outside its skill folder');
  }
  if (opened.file === 'not-regular') throw new InvalidSkillError(path, 'is not a regular file');
  const { handle } = opened.file;
  let bytes: Buffer;
  try {
    bytes = await readAtMost(handle, FRONT_MATTER_LIMIT + catalog.maxBytes + 1);
  } finally {
    await handle.close();
  }
  const split = splitSkillFile(bytes);
  if (typeof split === 'string') throw new InvalidSkillError(path, split);
  const body = bytes.subarray(split.bodyStart);
  const truncated = body.length > catalog.maxBytes;
  const text = utf8Prefix(body, catalog.maxBytes)
    .toString('utf8')
    .replace(/^(?:[ \t]*\r?\n)+/, '')
    .trimEnd();
  return truncated ? `${text}\n\n[skills: body truncated at ${catalog.maxBytes} bytes]` : text;
}
