/** The loud tool for `golem mcp serve`, from a module that also writes to stdout while it loads. */
export { loud } from './loud-tools';

console.log('loud-module: loading');
