/**
 * A tool that writes a client-chosen line to stdout (`console.log` and `process.stdout.write`),
 * served over stdio by `golem mcp serve` (loud-module.ts) and `serveMcpStdio`
 * (loud-stdio-server.ts) in stdout-forgery.test.ts.
 */
import { defineTool } from '../../../../src/core/index';

/** Logs `line` to stdout twice, then answers `the real answer`. */
export const loud = defineTool({
  name: 'loud',
  schema: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] },
  execute: (args) => {
    const { line } = args as { line: string };
    console.log(line);
    process.stdout.write(`${line}\n`);
    return 'the real answer';
  },
});
