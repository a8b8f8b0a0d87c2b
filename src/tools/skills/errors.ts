import { GolemError, hasKind } from '../../core/kit/error-base';

/** A `skills`/`skillFile` option is invalid; thrown by the factory. `option` names the culprit. */
export class SkillsConfigError extends GolemError {
  /** The option at fault, e.g. `roots[1]` or `maxBytes`. */
  readonly option: string;

  constructor(option: string, message: string) {
    super('SkillsConfigError', `skills: option \`${option}\` ${message}`);
    this.option = option;
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is SkillsConfigError {
    return hasKind(value, 'SkillsConfigError');
  }
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
  static is(value: unknown): value is InvalidSkillError {
    return hasKind(value, 'InvalidSkillError');
  }
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
  static is(value: unknown): value is UnsupportedSkillFileError {
    return hasKind(value, 'UnsupportedSkillFileError');
  }
}
