/** Tool names every provider accepts: 1–64 letters, digits, `_` or `-`. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A method name in snake_case: `getWeather` → `get_weather`, `fetchURL` → `fetch_url`,
 * `HTMLParser` → `html_parser`, `forecast2Days` → `forecast2_days`.
 */
export function snakeCase(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .toLowerCase();
}
