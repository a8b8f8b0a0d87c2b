/**
 * MCP elicitation, both ways, against the official reference server `server-everything` (a dev
 * dependency here), offline: a handler that checks the user's answer against the server's schema
 * and asks again, and a run that pauses for the answer through the deferred-tools flow.
 */
import { dirname, join } from 'node:path';
import { Agent, type Tool } from 'golem';
import { connectMcp, elicitationProblems, mcpElicitationOf } from 'golem/mcp';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const SERVER = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);
const TOOL = 'trigger-elicitation-request';

/** What a person types into the form, one attempt after another (a UI, in a real app). */
const typed = [
  { name: 'Ada Lovelace', integer: 500 },
  { name: 'Ada Lovelace', integer: 7 },
];

/** Runs an agent that calls the elicitation tool once. */
function caller(tools: Tool[]) {
  return new Agent({
    model: new ScriptedModel([
      toolCallResponse([{ id: 'ask-1', name: TOOL, args: {} }]),
      textResponse('Registered.'),
    ]),
    tools,
    deferredTools: true,
  });
}

/** The server's summary line for a field, from the tool result. */
function line(text: string | undefined, field: string): string {
  return (
    (text ?? '')
      .split('\n')
      .find((l) => l.includes(field))
      ?.trim() ?? '(none)'
  );
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const transport = { kind: 'stdio' as const, command: process.execPath, args: [SERVER, 'stdio'] };

  // 1. A handler answers at once; it checks the answer and asks the person again on a problem.
  const answering = await connectMcp({
    name: 'everything',
    transport,
    elicitation: {
      handler: (request) => {
        for (const content of typed) {
          const problems = elicitationProblems(request.requestedSchema, content);
          if (problems.length === 0) return { action: 'accept', content };
          log(`form rejected: ${problems.join('; ')}`);
        }
        return { action: 'cancel' };
      },
    },
  });
  try {
    const agent = caller(await answering.tools({ include: [TOOL] }));
    const result = await agent.run('Register me.');
    const tool = result.messages.find((m) => m.role === 'tool');
    log(`answered at once -> ${line(tool?.content, 'Favorite Integer')}`);
  } finally {
    await answering.close();
  }

  // 2. The run pauses for the answer (nobody is at the keyboard while it runs).
  const pausing = await connectMcp({
    name: 'everything',
    transport,
    elicitation: { pauseRun: true },
  });
  try {
    const agent = caller(await pausing.tools({ include: [TOOL] }));
    const paused = await agent.run('Register me.');
    const approvals: Record<string, { approved: boolean }> = {};
    for (const pending of paused.pending?.approvals ?? []) {
      const question = mcpElicitationOf(pending);
      if (question === undefined) continue;
      const required = (question.requestedSchema?.required ?? []) as string[];
      log(`paused on ${pending.callId}: "${question.message}" (required: ${required.join(', ')})`);
      // Later — possibly in another process — the person answers:
      pausing.answerElicitation(pending.callId, {
        action: 'accept',
        content: { name: 'Grace Hopper', check: true },
      });
      approvals[pending.callId] = { approved: true };
    }
    const resumed = await agent.resume(paused.messages, { approvals });
    const tool = resumed.messages.filter((m) => m.role === 'tool').at(-1);
    log(`resumed -> ${line(tool?.content, 'Name:')}`);
    log(`output: ${resumed.output}`);
  } finally {
    await pausing.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
