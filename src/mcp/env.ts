/**
 * Variables a stdio server inherits from this process: enough to run (PATH, HOME, locale, temp
 * folders and the Windows essentials), never credentials. API keys, tokens and cloud settings are
 * not inherited unless the application passes them explicitly in `env` or names them in
 * `inheritEnv`.
 */
export const INHERITED_ENV: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  // Windows
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'USERNAME',
];

/**
 * The child's environment: the allow-listed variables (plus `inheritEnv`) that are set here —
 * skipping exported shell functions (values starting with `()`) — then the explicit `env`.
 */
export function childEnvironment(
  source: NodeJS.ProcessEnv,
  inheritEnv: readonly string[],
  env: Readonly<Record<string, string>>,
): Record<string, string> {
  const result: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const key of [...INHERITED_ENV, ...inheritEnv]) {
    const value = source[key];
    if (typeof value === 'string' && !value.startsWith('()')) result[key] = value;
  }
  for (const [key, value] of Object.entries(env)) result[key] = value;
  return { ...result };
}
