import type { SkillCatalog } from './catalog';

/** Escapes text for an XML-like element body, so a description cannot close or open tags. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Collapses runs of whitespace (newlines included) into single spaces. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The `<available_skills>` catalog: one compact line per skill with its name and description,
 * descriptions on one line and XML-escaped.
 */
export function renderCatalog(catalog: SkillCatalog): string {
  const lines = ['<available_skills>'];
  for (const skill of catalog.skills.values()) {
    lines.push(
      `<skill><name>${skill.name}</name><description>${escapeXml(oneLine(skill.description))}</description></skill>`,
    );
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}

/** What a `skill` call returns: the body, the base directory and the files of the skill. */
export function renderSkill(
  name: string,
  body: string,
  dir: string,
  files: readonly string[],
): string {
  return [
    `<skill_content name="${name}">`,
    body,
    '</skill_content>',
    `<skill_base_dir>${escapeXml(dir)}</skill_base_dir>`,
    '<skill_files>',
    ...files.map(escapeXml),
    '</skill_files>',
  ].join('\n');
}
