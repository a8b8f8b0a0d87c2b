/** Working memory on a real SQLite file: concurrent updates of two stores on one database both land. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunStore } from 'golem';
import { Memory } from 'golem/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import { z } from 'zod';
import { call, memoryContext, toolContext } from './support';

let dir: string;
const stores: RunStore[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'golem-working-memory-'));
});
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const Profile = z.object({
  name: z.string().optional(),
  plan: z.string().optional(),
  seats: z.number().optional(),
});

test('concurrent updates through two connections merge: each field lands once', async () => {
  const path = join(dir, 'runs.db');
  const first = sqliteStore({ path });
  stores.push(first);
  await first.migrate();
  const second = sqliteStore({ path });
  stores.push(second);
  await second.migrate();
  const a = new Memory({ workingMemory: { schema: Profile }, store: first });
  const b = new Memory({ workingMemory: { schema: Profile }, store: second });
  const toolA = a.tools[0];
  const toolB = b.tools[0];
  if (toolA === undefined || toolB === undefined) throw new Error('no tool');
  await Promise.all([
    call(toolA, { name: 'Ada' }, toolContext('u1')),
    call(toolB, { plan: 'pro' }, toolContext('u1')),
    call(toolA, { seats: 3 }, toolContext('u1')),
  ]);
  expect(await a.workingMemory({ owner: 'u1' })).toEqual({ name: 'Ada', plan: 'pro', seats: 3 });
  const stored = await (first as Required<RunStore>).getWorkingMemory('owner:u1');
  expect(stored?.version).toBe(3);
  expect(await b.recall(memoryContext({ owner: 'u1' }))).toContain('"seats":3');
});
