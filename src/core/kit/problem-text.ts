/**
 * How a rejection names where a problem is and says what it is, for the model: the one path
 * notation of DTO validation (`golem/decorators`) and Standard Schema issues. Internal.
 */

const MAX_MESSAGE = 200;
const MAX_KEY = 40;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The path of `key` inside `path`: `[3]` for indices, `a.b` for identifiers, `a["any key"]`
 * (quoted, clipped to 40 characters) for other keys, so a hostile key cannot bloat a message. A
 * quoted key's `;` is escaped (still valid JSON), so it cannot forge the `; ` between problems.
 */
export function pathJoin(path: string, key: unknown): string {
  if (typeof key === 'number' || (typeof key === 'string' && /^\d+$/.test(key)))
    return `${path}[${String(key)}]`;
  if (typeof key === 'string' && IDENTIFIER.test(key) && key.length <= MAX_KEY)
    return path === '' ? key : `${path}.${key}`;
  const name = typeof key === 'string' ? key : typeof key === 'symbol' ? key.toString() : '?';
  const shown = name.length > MAX_KEY ? `${name.slice(0, MAX_KEY - 1)}…` : name;
  return `${path}[${JSON.stringify(shown).replaceAll(';', '\\u003b')}]`;
}

/** A problem's message clipped to 200 characters. */
export function clipMessage(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}
