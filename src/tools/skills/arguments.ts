import { isRecord } from '../../core/kit/guards';
import { ModelRetry } from '../../core/errors/errors';
import type { SkillCatalog, SkillEntry } from './catalog';

/** `a, b, c` — the names a model may call, for correction messages. */
export function availableNames(catalog: SkillCatalog): string {
  return [...catalog.skills.keys()].join(', ');
}

/**
 * Checks that `args` is an object with exactly the `allowed` keys (all strings) and returns them.
 * Any mistake is a {@link ModelRetry} naming the fix and listing the available skills.
 */
export function stringArgs(
  args: unknown,
  allowed: readonly string[],
  example: string,
  catalog: SkillCatalog,
): Record<string, string> {
  const hint = `; available skills: ${availableNames(catalog)}`;
  if (!isRecord(args) || Array.isArray(args)) {
    throw new ModelRetry(`the arguments must be a JSON object like ${example}${hint}`);
  }
  const result: Record<string, string> = {};
  for (const key of Object.keys(args)) {
    if (!allowed.includes(key)) {
      throw new ModelRetry(`unexpected argument "${key}"; send only ${example}${hint}`);
    }
  }
  for (const key of allowed) {
    const value = Object.hasOwn(args, key) ? args[key] : undefined;
    if (typeof value !== 'string' || value === '') {
      throw new ModelRetry(`"${key}" must be a non-empty string; send ${example}${hint}`);
    }
    result[key] = value;
  }
  return result;
}

/** The catalog entry for `name`, or a ModelRetry listing the available names. */
export function findSkill(catalog: SkillCatalog, name: string): SkillEntry {
  const skill = catalog.skills.get(name);
  if (skill === undefined) {
    throw new ModelRetry(
      `unknown skill ${JSON.stringify(name)}; available skills: ${availableNames(catalog)}`,
    );
  }
  return skill;
}
