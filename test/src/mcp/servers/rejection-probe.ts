/**
 * Connects golem's client to hostile-tools-server.js (mode: first argument), prints the names of
 * the tools it bridges as JSON on stdout and closes (run through @swc-node/register by
 * hostile-definitions.test.ts, which reads the process warning on stderr).
 */
import { join } from 'node:path';
import { connectMcp } from '../../../../src/mcp/index';

async function main(): Promise<void> {
  const client = await connectMcp({
    name: 'mixed',
    transport: {
      kind: 'stdio',
      command: process.execPath,
      args: [join(__dirname, 'hostile-tools-server.js'), process.argv[2] ?? 'deep'],
    },
  });
  try {
    const tools = await client.tools();
    process.stdout.write(`${JSON.stringify(tools.map((t) => t.name))}\n`);
  } finally {
    await client.close();
  }
}

void main();
