/**
 * The agent-skills tools (`golem/tools/skills`): `skill` and `skill_file`. Needs the peer
 * dependency `yaml`; loading it without yaml throws a `missing-peer` `ConfigError`.
 * @packageDocumentation
 */
import './peers';
export type { SkillsOptions } from './options';
export type { SkillCatalog, SkillEntry } from './catalog';
export { loadSkillCatalog } from './catalog';
export type { SkillMetadata } from './front-matter';
export { skills } from './skill-tool';
export { skillFile } from './skill-file-tool';
