/**
 * The run-store contract, threads and working memory: conversations listed, searched, renamed,
 * forked and deleted through `Threads`, the owner checked on every call (another owner's thread
 * reads exactly like a missing one), runs keeping a thread's title and metadata, and conditional
 * working-memory writes. Registered by each adapter's suite.
 */
import { Agent, defineTool, loadConversation, loadRun, RunInputError, StoreError } from 'golem';
import type { Message, ModelRequest, RunStore } from 'golem';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { Threads } from '../../../src/memory/threads';
import type { StoreFactory } from './contract-runs';
import { FakeClock } from './scenario';

/** The text of the last user message of a request. */
function lastPrompt(request: ModelRequest): string {
  const users = request.messages.filter((m: Message) => m.role === 'user');
  return users.at(-1)?.content ?? '';
}

/**
 * An agent answering `re: <prompt>`; a prompt starting with `lookup` first calls the `lookup`
 * tool (arguments `{ q: 'secret-arg' }`), a prompt starting with `approve` calls `pay`, which
 * needs approval (so the run pauses), and a prompt starting with `fail` makes the model throw.
 */
function chat(store: RunStore): Agent<unknown, string, true> {
  return new Agent({
    name: 'chat',
    store,
    deferredTools: true,
    model: new FunctionModel((request) => {
      const prompt = lastPrompt(request);
      const answered = request.messages.at(-1)?.role === 'tool';
      if (prompt.startsWith('fail')) throw new Error('model down');
      if (!answered && prompt.startsWith('lookup'))
        return toolCallResponse([{ id: `l-${prompt}`, name: 'lookup', args: { q: 'secret-arg' } }]);
      if (!answered && prompt.startsWith('approve'))
        return toolCallResponse([{ id: 'p1', name: 'pay', args: {} }]);
      return textResponse(`re: ${prompt}`);
    }),
    tools: [
      defineTool({ name: 'lookup', schema: { type: 'object' }, execute: () => 'found it' }),
      defineTool({
        name: 'pay',
        schema: { type: 'object' },
        approval: true,
        execute: () => 'paid',
      }),
    ],
  });
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

export function threadsContract(name: string, factory: StoreFactory): void {
  describe(`${name}: threads`, () => {
    let clock: FakeClock;
    let store: RunStore;
    let cleanup: () => Promise<void>;
    let threads: Threads;
    let agent: Agent<unknown, string, true>;
    beforeEach(async () => {
      clock = new FakeClock();
      ({ store, cleanup } = await factory(clock));
      threads = new Threads(store);
      agent = chat(store);
    });
    afterEach(async () => {
      await cleanup();
    });

    /** A run on `conversation` for `owner`, then a millisecond later. */
    async function say(conversation: string, owner: string | undefined, prompt: string) {
      const result = await agent.run(prompt, {
        conversation,
        ...(owner !== undefined && { owner }),
      });
      clock.advance(1);
      return result;
    }

    test('list: the owner’s threads only, newest first, paged with before', async () => {
      await say('a-1', 'alice', 'one');
      await say('b-1', 'bob', 'bob here');
      await say('a-2', 'alice', 'two');
      await say('a-3', 'alice', 'three');
      await say('a-1', 'alice', 'one again'); // a-1 is now the newest
      const all = await threads.list({ owner: 'alice' });
      expect(all.map((t) => t.id)).toEqual(['a-1', 'a-3', 'a-2']);
      expect(all.every((t) => t.owner === 'alice')).toBe(true);
      const page1 = await threads.list({ owner: 'alice', limit: 2 });
      const page2 = await threads.list({ owner: 'alice', limit: 2, before: page1.at(-1) });
      expect([...page1, ...page2].map((t) => t.id)).toEqual(['a-1', 'a-3', 'a-2']);
      expect((await threads.list({ owner: 'bob' })).map((t) => t.id)).toEqual(['b-1']);
      expect(await threads.list({ owner: 'carol' })).toEqual([]);
      // Unscoped (an operator): everyone's.
      expect((await threads.list({ owner: undefined })).map((t) => t.id).sort()).toEqual([
        'a-1',
        'a-2',
        'a-3',
        'b-1',
      ]);
    });

    test('search: title and message text, ASCII case-insensitive, never tool arguments or other owners', async () => {
      await say('s-1', 'alice', 'Where is my PARCEL?');
      await say('s-2', 'alice', 'lookup the weather');
      await say('s-3', 'alice', 'price is 50% off, say "hi"');
      await say('s-4', 'bob', 'my parcel too');
      await threads.rename('s-2', 'Holiday plans', { owner: 'alice' });
      const ids = async (text: string, owner: string | undefined = 'alice', all = false) =>
        (await threads.search({ owner: all ? undefined : owner, text })).map((t) => t.id).sort();
      expect(await ids('parcel')).toEqual(['s-1']); // user text, other case; not bob's
      expect(await ids('re: where')).toEqual(['s-1']); // assistant text
      expect(await ids('holiday')).toEqual(['s-2']); // title
      expect(await ids('secret-arg')).toEqual([]); // tool arguments are not searched
      expect(await ids('found it')).toEqual([]); // nor tool results
      expect(await ids('50%')).toEqual(['s-3']);
      expect(await ids('5_%')).toEqual([]); // wildcards are literal
      expect(await ids('say "hi"')).toEqual(['s-3']); // quotes, escaped in the stored JSON
      expect(await ids('parcel', 'bob')).toEqual(['s-4']);
      expect(await ids('parcel', undefined, true)).toEqual(['s-1', 's-4']);
      // The limit counts matches, not the candidates the store returned.
      expect(await threads.search({ owner: 'alice', text: 'e', limit: 2 })).toHaveLength(2);
    });

    test('search pages past candidates the store matched only in tool arguments or JSON', async () => {
      await say('old', 'alice', 'the secret-arg is here');
      for (let i = 0; i < 25; i++) await say(`noise-${i}`, 'alice', `lookup ${i}`);
      const found = await threads.search({ owner: 'alice', text: 'SECRET-ARG', limit: 1 });
      expect(found.map((t) => t.id)).toEqual(['old']);
      expect(await threads.search({ owner: 'alice', text: 'toolCallId' })).toEqual([]);
    });

    test('rename and metadata: stored, read back, and kept by later runs (paused ones too)', async () => {
      await say('r-1', 'alice', 'hello');
      const renamed = await threads.rename('r-1', 'Greetings', { owner: 'alice' });
      expect(renamed.title).toBe('Greetings');
      await threads.setMetadata('r-1', { pinned: true, tags: ['a', 'b'] }, { owner: 'alice' });
      await say('r-1', 'alice', 'again');
      const paused = await say('r-1', 'alice', 'approve it');
      // Renaming is allowed while a run holds the thread, and the run's end keeps it.
      await threads.rename('r-1', 'Payments', { owner: 'alice' });
      const done = await agent.resume(
        paused.runId ?? '',
        { approvals: { p1: { approved: true } } },
        { owner: 'alice' },
      );
      expect(done.output).toBe('re: approve it');
      const thread = await threads.get('r-1', { owner: 'alice' });
      expect(thread).toMatchObject({
        title: 'Payments',
        metadata: { pinned: true, tags: ['a', 'b'] },
        activeRunId: undefined,
      });
      expect(thread.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
        'hello',
        'again',
        'approve it',
      ]);
      const record = await loadConversation(store, 'r-1', { owner: 'alice' });
      expect(record).toMatchObject({
        title: 'Payments',
        metadata: { pinned: true, tags: ['a', 'b'] },
      });
      expect((await threads.rename('r-1', null, { owner: 'alice' })).title).toBeUndefined();
      expect((await threads.setMetadata('r-1', null, { owner: 'alice' })).metadata).toBeUndefined();
    });

    test('create: an empty thread a run then continues; a taken id is a conflict', async () => {
      const made = await threads.create({ owner: 'alice', title: 'New chat', metadata: { n: 1 } });
      expect(made).toMatchObject({ owner: 'alice', title: 'New chat', metadata: { n: 1 } });
      await say(made.id, 'alice', 'first');
      expect(await threads.get(made.id, { owner: 'alice' })).toMatchObject({
        title: 'New chat',
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 're: first' },
        ],
      });
      const taken = await refusal(threads.create({ owner: 'bob', id: made.id }));
      expect(StoreError.isReason(taken, 'conflict')).toBe(true);
      // Another owner cannot run on it either.
      expect(StoreError.isReason(await refusal(say(made.id, 'bob', 'x')), 'not-found')).toBe(true);
    });

    test('fork: the first messages copied with owner and metadata; the original untouched; a cut inside a tool pair refused', async () => {
      await say('f-1', 'alice', 'lookup one'); // user, assistant(call), tool, assistant
      await say('f-1', 'alice', 'two'); // user, assistant
      await threads.rename('f-1', 'Trip', { owner: 'alice' });
      await threads.setMetadata('f-1', { k: 'v' }, { owner: 'alice' });
      const before = await threads.get('f-1', { owner: 'alice' });
      expect(before.messages).toHaveLength(6);
      const cut = await refusal(threads.fork('f-1', { owner: 'alice', atMessage: 2 }));
      expect(cut).toBeInstanceOf(RunInputError);
      expect(cut.message).toContain('fork at 1 (before the call) or 3 (after its results)');
      const fork = await threads.fork('f-1', { owner: 'alice', atMessage: 4, id: 'f-2' });
      expect(fork).toMatchObject({
        id: 'f-2',
        owner: 'alice',
        title: 'Trip (fork)',
        metadata: { k: 'v' },
      });
      expect(fork.messages).toEqual(before.messages.slice(0, 4));
      expect(await threads.get('f-1', { owner: 'alice' })).toEqual(before);
      await say('f-2', 'alice', 'three');
      expect((await threads.get('f-2', { owner: 'alice' })).messages).toHaveLength(6);
      expect((await threads.get('f-1', { owner: 'alice' })).messages).toHaveLength(6);
      const named = await threads.fork('f-1', { owner: 'alice', atMessage: 0, title: 'Blank' });
      expect(named).toMatchObject({ title: 'Blank', messages: [] });
      const range = await refusal(threads.fork('f-1', { owner: 'alice', atMessage: 7 }));
      expect(range).toBeInstanceOf(RunInputError);
    });

    test('delete: refused while a run holds the thread; then gone, its runs kept, a failed one not continued', async () => {
      const paused = await say('d-1', 'alice', 'approve it');
      const held = await refusal(threads.delete('d-1', { owner: 'alice' }));
      expect(StoreError.isReason(held, 'conflict')).toBe(true);
      expect(held.message).toContain(paused.runId ?? '?');
      await agent.resume(
        paused.runId ?? '',
        { approvals: { p1: { approved: true } } },
        { owner: 'alice' },
      );
      const failed = await refusal(say('d-1', 'alice', 'fail now'));
      const failedId = (failed as { runId?: string }).runId ?? '';
      expect((await loadRun(store, failedId)).status).toBe('failed');
      await threads.delete('d-1', { owner: 'alice' });
      const gone = await refusal(threads.get('d-1', { owner: 'alice' }));
      expect(StoreError.isReason(gone, 'not-found')).toBe(true);
      expect(await threads.list({ owner: 'alice' })).toEqual([]);
      expect((await loadRun(store, paused.runId ?? '')).status).toBe('completed');
      // Continuing the failed run would bring the deleted conversation back: refused.
      const again = await refusal(agent.resumeRun(failedId, { owner: 'alice' }));
      expect(StoreError.isReason(again, 'conflict')).toBe(true);
      expect(again.message).toContain('was deleted');
      expect(await store.getConversation('d-1')).toBeUndefined();
      // The id can start a new thread.
      await say('d-1', 'alice', 'fresh');
      expect((await threads.get('d-1', { owner: 'alice' })).messages).toHaveLength(2);
    });

    test('another owner’s thread is reported exactly like a missing one, by every method, and left untouched', async () => {
      await say('o-1', 'alice', 'private');
      await threads.rename('o-1', 'Mine', { owner: 'alice' });
      const original = await threads.get('o-1', { owner: 'alice' });
      const bob = { owner: 'bob' };
      const calls: [string, (id: string) => Promise<unknown>][] = [
        ['get', (id) => threads.get(id, bob)],
        ['rename', (id) => threads.rename(id, 'Hacked', bob)],
        ['setMetadata', (id) => threads.setMetadata(id, { x: 1 }, bob)],
        ['fork', (id) => threads.fork(id, { ...bob, atMessage: 0 })],
        ['delete', (id) => threads.delete(id, bob)],
      ];
      for (const [method, call] of calls) {
        const foreign = await refusal(call('o-1'));
        const missing = await refusal(call('no-such'));
        expect([method, StoreError.isReason(foreign, 'not-found')]).toEqual([method, true]);
        expect([method, foreign.message.replace('o-1', 'ID')]).toEqual([
          method,
          missing.message.replace('no-such', 'ID'),
        ]);
        expect(foreign.message).not.toContain('alice');
      }
      expect(await threads.search({ owner: 'bob', text: 'private' })).toEqual([]);
      expect(await threads.list({ owner: 'bob' })).toEqual([]);
      expect(await threads.get('o-1', { owner: 'alice' })).toEqual(original);
    });

    test('inputs are validated with RunInputErrors naming the fix', async () => {
      await say('v-1', 'alice', 'x');
      const scope = { owner: 'alice' };
      const bad: Promise<unknown>[] = [
        threads.rename('v-1', 'x'.repeat(201), scope),
        threads.rename('v-1', 'two\nlines', scope),
        threads.rename('v-1', '', scope),
        threads.setMetadata('v-1', [1] as unknown as Record<string, never>, scope),
        threads.setMetadata('v-1', { when: new Date() } as unknown as Record<string, never>, scope),
        threads.setMetadata('v-1', { n: Number.NaN }, scope),
        threads.setMetadata('v-1', { big: 'x'.repeat(20_000) }, scope),
        threads.list({ owner: 'alice', limit: 0 }),
        threads.search({ owner: 'alice', text: '' }),
        threads.get('has space', scope),
        threads.list({} as unknown as { owner: string }),
        threads.get('v-1', { owner: '' }),
      ];
      for (const promise of bad) expect(await refusal(promise)).toBeInstanceOf(RunInputError);
      expect((await threads.get('v-1', scope)).title).toBeUndefined();
    });
  });

  describe(`${name}: working-memory rows`, () => {
    let store: RunStore;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await factory(new FakeClock()));
    });
    afterEach(async () => {
      await cleanup();
    });

    const row = (version: number, value: unknown) => ({
      scope: 'user:alice',
      value: JSON.stringify(value),
      version,
      updatedAt: 1_000 + version,
    });

    test('0 inserts only when absent; a write names the version it replaces', async () => {
      const get = store.getWorkingMemory?.bind(store);
      const put = store.putWorkingMemory?.bind(store);
      if (get === undefined || put === undefined) throw new Error('no working memory');
      expect(await get('user:alice')).toBeUndefined();
      expect(await put(row(1, { name: 'Alice' }), 0)).toBe(true);
      expect(await put(row(1, { name: 'Mallory' }), 0)).toBe(false);
      expect(await put(row(2, { name: 'Bob' }), 5)).toBe(false);
      expect(await get('user:alice')).toEqual(row(1, { name: 'Alice' }));
      expect(await put(row(2, { name: 'Al' }), 1)).toBe(true);
      expect(await put(row(2, { name: 'Stale' }), 1)).toBe(false);
      expect(await get('user:alice')).toEqual(row(2, { name: 'Al' }));
      expect(await get('user:bob')).toBeUndefined();
      expect(await store.deleteWorkingMemory?.('user:alice')).toBe(true);
      expect(await store.deleteWorkingMemory?.('user:alice')).toBe(false);
      expect(await put(row(1, { fresh: true }), 0)).toBe(true);
    });

    test('concurrent writers from the same version: exactly one wins, and its value is stored', async () => {
      const put = store.putWorkingMemory?.bind(store);
      if (put === undefined) throw new Error('no working memory');
      const inserts = await Promise.all(
        Array.from({ length: 8 }, (_, i) => put(row(1, { writer: i }), 0)),
      );
      expect(inserts.filter(Boolean)).toHaveLength(1);
      const updates = await Promise.all(
        Array.from({ length: 8 }, (_, i) => put(row(2, { writer: i }), 1)),
      );
      expect(updates.filter(Boolean)).toHaveLength(1);
      const winner = updates.indexOf(true);
      expect(await store.getWorkingMemory?.('user:alice')).toEqual(row(2, { writer: winner }));
    });
  });
}
