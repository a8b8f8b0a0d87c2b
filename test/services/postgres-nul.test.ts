/**
 * U+0000 against a real PostgreSQL server, whose text cannot hold it (issue 25, item 5): an id
 * containing it is simply not found (never a `failed` store error), and a tool's error text
 * containing it does not make the run's last write fail and leave the run `running` on its
 * conversation.
 */
import {
  Agent,
  defineTool,
  listRuns,
  loadConversation,
  loadRun,
  RunError,
  StoreError,
} from 'golem';
import type { RunStore } from 'golem';
import { postgresStore } from 'golem/stores/postgres';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { dropSchema, schemaName, testPool } from './pg';
import { POSTGRES_URL } from './postgres-url';

const admin = testPool();
let schema: string;
let store: RunStore;
beforeEach(() => {
  schema = schemaName();
  store = postgresStore({ connectionString: POSTGRES_URL, schema });
});
afterEach(async () => {
  await store.close();
  await dropSchema(admin, schema);
});
afterAll(() => admin.end());

test('an id with a NUL byte is not found: loadRun is not-found, loadConversation and listRuns find nothing', async () => {
  const error: unknown = await loadRun(store, 'run\u0000x').catch((e: unknown) => e);
  expect(StoreError.isReason(error, 'not-found')).toBe(true);
  expect((error as StoreError).message).toBe('no stored run has the id "run\\u0000x"');
  expect(await loadConversation(store, 'chat\u0000x')).toBeUndefined();
  expect(await listRuns(store, { conversationId: 'chat\u0000x' })).toEqual([]);
  expect(await listRuns(store, { agent: 'a\u0000' })).toEqual([]);
  expect(await store.getRun('run\u0000x')).toBeUndefined();
  expect(await store.transaction((tx) => tx.getConversation('chat\u0000x'))).toBeUndefined();
});

test('a tool error with a NUL byte is stored as failed and releases the conversation', async () => {
  let turn = 0;
  const agent = new Agent({
    store,
    tools: [
      defineTool({
        name: 'boom',
        description: 'Fails.',
        schema: { type: 'object' },
        execute: () => {
          throw new Error('bad\u0000byte');
        },
      }),
    ],
    model: new FunctionModel(() =>
      turn++ === 0 ? toolCallResponse([{ id: 'c1', name: 'boom', args: {} }]) : textResponse('ok'),
    ),
  });
  const error: unknown = await agent
    .run('go', { runId: 'r1', conversation: 'chat' })
    .catch((e: unknown) => e);
  expect(RunError.is(error)).toBe(true);
  const record = await loadRun(store, 'r1');
  expect(record.status).toBe('failed');
  expect(record.error?.message).toContain('bad\ufffdbyte');
  // Nothing holds the conversation: the next run on it starts and completes.
  const later = await agent.run('again', { conversation: 'chat' });
  expect(later.output).toBe('ok');
});
