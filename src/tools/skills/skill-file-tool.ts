import { join } from 'node:path';
import { throwIfCancelled } from '../../core/errors/cancellation';
import { ModelRetry } from '../../core/errors/errors';
import type { Tool } from '../../core/tool/tool';
import { defineTool } from '../../core/tool/define-tool';
import { availableNames, findSkill, stringArgs } from './arguments';
import { loadSkillCatalog, type SkillEntry } from './catalog';
import { errorCode, openConfined, readAtMost, relativePathProblem, utf8Prefix } from './confine';
import { UnsupportedSkillFileError } from './errors';
import type { SkillsOptions } from './options';

/** The name of the tool built by {@link skillFile}. */
export const SKILL_FILE_TOOL = 'skill_file';

const EXAMPLE = '{"name": "<skill name>", "path": "<file listed in <skill_files>>"}';

/**
 * The `skill_file` tool: reads one text file inside a skill's folder (a path listed in the
 * `skill` tool's `<skill_files>`). The path is checked before any filesystem access (relative,
 * no `..`, no backslashes or control characters), its real path must stay inside the skill
 * folder, and only regular text files are returned, capped at `maxBytes` with a marker. Discovery
 * and validation are those of {@link skills}.
 */
export function skillFile(options: SkillsOptions): Tool {
  const catalog = loadSkillCatalog(options);
  return defineTool({
    name: SKILL_FILE_TOOL,
    description:
      'Reads a text file that belongs to an agent skill: give the skill name and the file path as listed by the skill tool.',
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: `The skill; one of: ${availableNames(catalog)}` },
        path: {
          type: 'string',
          description: 'Path of the file relative to the skill folder, e.g. "reference.md"',
        },
      },
      required: ['name', 'path'],
      additionalProperties: false,
    },
    execute: async (args, ctx) => {
      throwIfCancelled(ctx.signal);
      const { name, path } = stringArgs(args, ['name', 'path'], EXAMPLE, catalog) as {
        name: string;
        path: string;
      };
      const skill = findSkill(catalog, name);
      const problem = relativePathProblem(path);
      if (problem !== undefined) {
        throw new ModelRetry(`path ${JSON.stringify(path)} ${problem}`);
      }
      return readSkillFile(skill, path, catalog.maxBytes);
    },
  });
}

async function readSkillFile(skill: SkillEntry, path: string, maxBytes: number): Promise<string> {
  const shown = JSON.stringify(path);
  let opened: Awaited<ReturnType<typeof openConfined>>;
  try {
    opened = await openConfined(skill.dir, join(skill.dir, path));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new ModelRetry(
        `skill "${skill.name}" has no file ${shown}; use a path listed in <skill_files>`,
        { cause: error },
      );
    }
    if (code === 'ELOOP') {
      throw new ModelRetry(`path ${shown} is a symbolic-link loop`, { cause: error });
    }
    throw error;
  }
  if (opened.outside) {
    throw new ModelRetry(`path ${shown} resolves outside the folder of skill "${skill.name}"`);
  }
  if (opened.file === 'not-regular') {
    throw new ModelRetry(`path ${shown} is not a regular file; use a path listed in <skill_files>`);
  }
  const { handle } = opened.file;
  let bytes: Buffer;
  try {
    bytes = await readAtMost(handle, maxBytes + 1);
  } finally {
    await handle.close();
  }
  if (bytes.includes(0)) throw new UnsupportedSkillFileError(skill.name, path);
  const text = utf8Prefix(bytes, maxBytes).toString('utf8');
  return bytes.length > maxBytes
    ? `${text}\n\n[skills: file truncated at ${maxBytes} bytes]`
    : text;
}
