/** The `run_command` common tool (`golem/tools/shell`). */
export type { ShellOptions } from './options';
export { shell, RUN_COMMAND_TOOL } from './shell';
export { INHERITED_ENV } from './environment';
export { MAX_COMMAND_LENGTH, MAX_SEGMENTS, MAX_WORDS } from './policy';
