/**
 * The agent-skills tools (`golem/tools/skills`): `skill` and `skill_file`. Needs the peer
 * dependency `yaml`; loading it without yaml throws a `missing-peer` `ConfigError`.
 * @packageDocumentation
 */
import './peers';
export type { SkillsOptions } from './options';
export { DEFAULT_MAX_BYTES } from './options';
export type { SkillCatalog, SkillEntry } from './catalog';
export { loadSkillCatalog, SKILL_FILE } from './catalog';
export type { SkillMetadata } from './front-matter';
export { skills, SKILL_TOOL } from './skill-tool';
export { skillFile, SKILL_FILE_TOOL } from './skill-file-tool';
