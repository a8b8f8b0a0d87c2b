import { GolemError, brandGuard } from '../../core/kit/error-base';
import { ConfigError } from '../../core/kit/config-error';

/**
 * A `skills`/`skillFile` option is invalid: a {@link ConfigError} of component `skills`; `option`
 * names it.
 */
export function skillsConfigError(option: string, message: string): ConfigError {
  return new ConfigError(`skills: option \`${option}\` ${message}`, {
    component: 'skills',
    option,
  });
}

/**
 * A skill folder is invalid: bad or missing front matter, a name that breaks the naming rules or
 * differs from its folder, an over-long field, or a `SKILL.md` that is not a regular file inside
 * the folder. Thrown by the factories (any invalid skill fails construction) and, when a skill
 * changed on disk after construction, by the tool at run time.
 */
export class InvalidSkillError extends GolemError {
  /** The `SKILL.md` (or skill folder) at fault. */
  readonly path: string;
  /** What is wrong, without the path. */
  readonly problem: string;

  constructor(path: string, problem: string, options?: { cause?: unknown }) {
    super('InvalidSkillError', `skills: ${path}: ${problem}`, options);
    this.path = path;
    this.problem = problem;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<InvalidSkillError>('InvalidSkillError');
}

/** A file inside a skill is not text (it contains NUL bytes); `skill_file` returns only text. */
export class UnsupportedSkillFileError extends GolemError {
  readonly skill: string;
  /** The path as requested, relative to the skill folder. */
  readonly path: string;

  constructor(skill: string, path: string) {
    super(
      'UnsupportedSkillFileError',
      `skills: ${JSON.stringify(path)} in skill "${skill}" is a binary file; only text files are returned`,
    );
    this.skill = skill;
    this.path = path;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UnsupportedSkillFileError>('UnsupportedSkillFileError');
}
