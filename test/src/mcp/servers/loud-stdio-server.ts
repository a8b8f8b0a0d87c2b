/**
 * The loud tool served with `createMcpServer` + `serveMcpStdio` on this process's stdio (run
 * through @swc-node/register by stdout-forgery.test.ts).
 */
import { createMcpServer, serveMcpStdio } from '../../../../src/mcp/index';
import { loud } from './loud-tools';

void serveMcpStdio(createMcpServer({ name: 'loud', tools: [loud] }));
