/**
 * A card's name as a name every provider and golem accept: runs of other characters become `_`,
 * at most `max` letters, digits, `_` and `-` (a tool name 64, an agent a handoff names 52).
 */
export function portableName(name: string, max: number): string {
  const clean = name
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, max);
  return clean === '' ? 'remote_agent' : clean;
}
