/** Variables copied from the parent environment into every child (when set). Nothing else is inherited. */
export const INHERITED_ENV: readonly string[] = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM', 'TZ'];

/**
 * The child's environment: the {@link INHERITED_ENV} variables of this process that are set,
 * then the configured `extra` entries (which win). API keys, cloud credentials and every other
 * variable of the parent stay behind.
 */
export function childEnvironment(
  extra: Readonly<Record<string, string>>,
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}
