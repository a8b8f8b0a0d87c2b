/**
 * Memory: a support agent that remembers a user's plan across threads. Working memory (a typed
 * record per user, updated by the `update_working_memory` tool) carries the plan; semantic recall
 * brings back what the user said in an earlier thread. Offline: the model is a `FunctionModel`
 * playing a tiny support bot, the embeddings come from `TestEmbeddingModel`.
 */
import { Agent, type ModelRequest } from 'golem';
import { Memory } from 'golem/memory';
import { memoryRecallStore, memoryStore } from 'golem/stores/memory';
import { FunctionModel, TestEmbeddingModel, textResponse, toolCallResponse } from 'golem/testing';
import { z } from 'zod';

/** What the agent keeps about each user (every field optional: the record starts empty). */
const UserProfile = z.object({
  name: z.string().optional(),
  plan: z.enum(['free', 'pro', 'enterprise']).optional(),
});

/** The system text the agent sent: its instructions plus the memory blocks. */
function systemText(request: ModelRequest): string {
  return request.messages.find((m) => m.role === 'system')?.content ?? '';
}

/**
 * A stand-in for a real model: saves a plan it is told about, answers plan questions from the
 * working memory, and quotes what semantic recall brought back.
 */
const model = new FunctionModel((request) => {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return textResponse('Got it, I saved that.');
  const text = last?.content ?? '';
  const told = /on the (\w+) plan/i.exec(text);
  if (told?.[1] !== undefined)
    return toolCallResponse([
      { id: 'save-1', name: 'update_working_memory', args: { plan: told[1].toLowerCase() } },
    ]);
  const system = systemText(request);
  if (text.includes('plan')) {
    const plan = /"plan":"(\w+)"/.exec(system)?.[1];
    return textResponse(
      plan === undefined ? 'I do not know your plan yet.' : `You are on the ${plan} plan.`,
    );
  }
  const recalled = /<memory thread="[^"]+" role="user"[^>]*>\n([^\n]+)/.exec(system)?.[1];
  return textResponse(
    recalled === undefined ? 'How can I help?' : `Earlier you told me: "${recalled}"`,
  );
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const store = memoryStore(); // runs, conversations and working memory (sqliteStore() in production)
  const embedder = new TestEmbeddingModel({ dimensions: 256 });
  const memory = new Memory({
    workingMemory: { schema: UserProfile },
    recall: { store: memoryRecallStore({ dimensions: 256 }), embedder, topK: 3 },
  });
  const agent = new Agent({
    model,
    store,
    memory,
    instructions: 'You are the support agent of Acme Cloud. Be brief.',
  });
  const ask = async (thread: string, prompt: string, owner = 'ada'): Promise<void> => {
    const result = await agent.run(prompt, { owner, conversation: thread });
    log(`[${owner} / ${thread}] ${prompt}`);
    log(`  -> ${result.output}`);
  };

  await ask('thread-1', 'Hi! I am on the Pro plan. Invoices should go to billing@acme.test.');
  await ask('thread-2', 'Which plan am I on?');
  await ask('thread-3', 'Where should invoices go again?');
  await ask('thread-4', 'Which plan am I on?', 'bob');

  log(
    `ada's working memory: ${JSON.stringify(await memory.workingMemory({ owner: 'ada', store }))}`,
  );
  log(
    `bob's working memory: ${JSON.stringify(await memory.workingMemory({ owner: 'bob', store }))}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
