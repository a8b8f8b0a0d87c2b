/**
 * The recall-store contract: the scenarios every adapter (memory, SQLite, PostgreSQL) must pass,
 * including a property test comparing its top-k with an exact brute-force reference.
 */
import { StoreError } from 'golem';
import { topKProperty } from './recall-topk';
import type {
  RecallEntry,
  RecallHit,
  RecallKind,
  RecallStore,
} from '../../../src/core/durable/recall-port';

/** A store under test; `reopen` (persistent adapters) opens the same data again. */
export interface RecallSubject {
  store: RecallStore;
  /** Opens the same database again with `dimensions` (default: the store's). */
  reopen?: (dimensions?: number) => RecallStore;
  cleanup(): Promise<void>;
}

export type RecallFactory = (dimensions: number) => Promise<RecallSubject>;

const D = 3;

/** An entry with defaults. */
export function entry(
  over: Partial<RecallEntry> & { id: string; embedding: number[] },
): RecallEntry {
  return { owner: 'alice', kind: 'message', text: `text of ${over.id}`, createdAt: 1_000, ...over };
}

const ids = (hits: RecallHit[]) => hits.map((h) => h.entry.id);

async function rejectsWith(promise: Promise<unknown>, reason: string, text?: RegExp) {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(StoreError.isReason(error, reason as never)).toBe(true);
  if (text !== undefined) expect((error as Error).message).toMatch(text);
}

/**
 * The recall-store contract against `factory`'s stores, labelled `name`; `persistent` adds the
 * reopen scenario (the memory store keeps nothing to reopen).
 */
export function recallContract(
  name: string,
  factory: RecallFactory,
  options: { persistent: boolean },
): void {
  describe(`recall store contract: ${name}`, () => {
    let subject: RecallSubject;
    let store: RecallStore;
    beforeEach(async () => {
      subject = await factory(D);
      store = subject.store;
    });
    afterEach(() => subject.cleanup());

    test('finds the nearest entries best first, with cosine scores, and replaces by id', async () => {
      expect(store.dimensions).toBe(D);
      await store.upsert([
        entry({ id: 'x', embedding: [1, 0, 0], conversationId: 'c1', position: 0 }),
        entry({ id: 'y', embedding: [0, 2, 0], metadata: { source: 'wiki', n: [1, null] } }),
        entry({ id: 'z', embedding: [-3, 0, 0], kind: 'document', documentId: 'doc' }),
      ]);
      const hits = await store.query({ owner: 'alice', embedding: [1, 1, 0], topK: 3 });
      expect(ids(hits)).toEqual(['x', 'y', 'z']);
      expect(hits[0]?.score).toBeCloseTo(Math.SQRT1_2, 5);
      expect(hits[2]?.score).toBeCloseTo(-Math.SQRT1_2, 5);
      expect(hits[0]?.entry).toEqual({
        id: 'x',
        owner: 'alice',
        kind: 'message',
        conversationId: 'c1',
        position: 0,
        text: 'text of x',
        createdAt: 1_000,
      });
      expect(hits[1]?.entry.metadata).toEqual({ source: 'wiki', n: [1, null] });
      expect(hits[2]?.entry).toMatchObject({ kind: 'document', documentId: 'doc' });
      expect('embedding' in (hits[0]?.entry ?? {})).toBe(false);
      expect(ids(await store.query({ owner: 'alice', embedding: [0, 1, 0], topK: 1 }))).toEqual([
        'y',
      ]);

      await store.upsert([
        entry({ id: 'z', embedding: [1, 1, 0], text: 'new z', createdAt: 2_000 }),
      ]);
      const again = await store.query({ owner: 'alice', embedding: [1, 1, 0], topK: 3 });
      expect(again[0]?.entry).toEqual({
        id: 'z',
        owner: 'alice',
        kind: 'message',
        text: 'new z',
        createdAt: 2_000,
      });
      expect(again[0]?.score).toBeCloseTo(1, 5);
      expect(await store.count()).toBe(3);
    });

    test('keeps owners apart, even with the same ids', async () => {
      await store.upsert([
        entry({ id: 'a', embedding: [1, 0, 0] }),
        entry({ id: 'a', owner: 'bob', embedding: [0, 1, 0], text: "bob's" }),
        entry({ id: 'b', owner: 'bob', embedding: [1, 0, 0] }),
      ]);
      const alice = await store.query({ owner: 'alice', embedding: [0, 1, 0], topK: 10 });
      expect(alice.map((h) => [h.entry.owner, h.entry.id])).toEqual([['alice', 'a']]);
      const bob = await store.query({ owner: 'bob', embedding: [0, 1, 0], topK: 10 });
      expect(bob.map((h) => h.entry.text)).toEqual(["bob's", 'text of b']);
      expect(await store.query({ owner: 'carol', embedding: [0, 1, 0], topK: 10 })).toEqual([]);
      expect(await store.count('alice')).toBe(1);
      expect(await store.count('bob')).toBe(2);
      expect(await store.has('alice', ['a', 'b'])).toEqual(new Set(['a']));
      expect(await store.delete({ owner: 'bob', ids: ['a'] })).toBe(1);
      expect(await store.has('alice', ['a'])).toEqual(new Set(['a']));
      expect(await store.count()).toBe(2);
    });

    test('filters by conversation, kind and score inside the top k', async () => {
      await store.upsert([
        entry({ id: 'm1', embedding: [1, 0, 0], conversationId: 'c1' }),
        entry({ id: 'm2', embedding: [1, 0.1, 0], conversationId: 'c1' }),
        entry({ id: 'm3', embedding: [1, 0.2, 0], conversationId: 'c2' }),
        entry({ id: 'm4', embedding: [0, 1, 0] }),
        entry({ id: 'd1', embedding: [1, 0.3, 0], kind: 'document', documentId: 'doc' }),
      ]);
      const q = { owner: 'alice', embedding: [1, 0, 0], topK: 2 };
      expect(ids(await store.query({ ...q, conversationId: 'c2' }))).toEqual(['m3']);
      // The filter applies before the top k is taken: two hits, though the best two are c1's.
      expect(ids(await store.query({ ...q, excludeConversationId: 'c1' }))).toEqual(['m3', 'd1']);
      expect(
        ids(
          await store.query({ ...q, topK: 5, conversationId: 'c1', excludeConversationId: 'c1' }),
        ),
      ).toEqual([]);
      expect(ids(await store.query({ ...q, kinds: ['document'] }))).toEqual(['d1']);
      expect(ids(await store.query({ ...q, topK: 9, kinds: ['message'] }))).toEqual([
        'm1',
        'm2',
        'm3',
        'm4',
      ]);
      expect(ids(await store.query({ ...q, kinds: ['message', 'document'] }))).toEqual([
        'm1',
        'm2',
      ]);
      expect(await store.query({ ...q, kinds: [] })).toEqual([]);
      expect(ids(await store.query({ ...q, topK: 9, minScore: 0.98 }))).toEqual(['m1', 'm2', 'm3']);
      expect(ids(await store.query({ ...q, topK: 9, minScore: -1 }))).toHaveLength(5);
      expect(ids(await store.query({ ...q, topK: 9, minScore: 1.5 }))).toEqual([]);
    });

    test('has, delete and count', async () => {
      await store.upsert([
        entry({ id: 'm1', embedding: [1, 0, 0], conversationId: 'c1' }),
        entry({ id: 'm2', embedding: [1, 1, 0], conversationId: 'c1' }),
        entry({ id: 'm3', embedding: [1, 2, 0], conversationId: 'c2' }),
        entry({ id: 'd1', embedding: [1, 3, 0], kind: 'document' }),
      ]);
      expect(await store.has('alice', ['m1', 'nope', 'd1', 'm1'])).toEqual(new Set(['m1', 'd1']));
      expect(await store.has('alice', [])).toEqual(new Set());
      expect(await store.delete({ owner: 'alice', conversationId: 'c1', ids: ['m1', 'm3'] })).toBe(
        1,
      );
      expect(await store.delete({ owner: 'alice', ids: [] })).toBe(0);
      expect(await store.delete({ owner: 'bob' })).toBe(0);
      expect(await store.delete({ owner: 'alice', conversationId: 'c1' })).toBe(1);
      expect(await store.has('alice', ['m1', 'm2', 'm3', 'd1'])).toEqual(new Set(['m3', 'd1']));
      expect(ids(await store.query({ owner: 'alice', embedding: [1, 0, 0], topK: 9 }))).toEqual([
        'm3',
        'd1',
      ]);
      expect(await store.delete({ owner: 'alice' })).toBe(2);
      expect(await store.count('alice')).toBe(0);
      expect(await store.count()).toBe(0);
      // A deleted id can be stored again.
      await store.upsert([entry({ id: 'm1', embedding: [0, 0, 1] })]);
      expect(ids(await store.query({ owner: 'alice', embedding: [0, 0, 1], topK: 9 }))).toEqual([
        'm1',
      ]);
    });

    test('stores and checks many entries at once', async () => {
      const many = Array.from({ length: 1_100 }, (_, i) =>
        entry({ id: `e${i}`, embedding: [1, i / 1_100, 0], conversationId: `c${i % 3}` }),
      );
      await store.upsert(many);
      expect(await store.count('alice')).toBe(1_100);
      const asked = [...many.map((e) => e.id), 'missing'];
      expect((await store.has('alice', asked)).size).toBe(1_100);
      expect(ids(await store.query({ owner: 'alice', embedding: [0, 1, 0], topK: 2 }))).toEqual([
        'e1099',
        'e1098',
      ]);
      expect(await store.delete({ owner: 'alice', ids: asked.slice(0, 700) })).toBe(700);
      expect(await store.delete({ owner: 'alice', conversationId: 'c0' })).toBe(133);
      expect(await store.count()).toBe(267);
    });

    test('refuses malformed input with invalid-input, naming expected and actual sizes', async () => {
      const q = { owner: 'alice', embedding: [1, 0, 0], topK: 3 };
      await rejectsWith(
        store.query({ ...q, embedding: [1, 0] }),
        'invalid-input',
        /expected 3, got 2/,
      );
      await rejectsWith(
        store.upsert([entry({ id: 'a', embedding: [1, 0, 0, 0] })]),
        'invalid-input',
        /entries\[0\]\.embedding.*expected 3, got 4/,
      );
      await rejectsWith(
        store.query({ ...q, embedding: [0, 0, 0] }),
        'invalid-input',
        /zero vector/,
      );
      await rejectsWith(
        store.query({ ...q, embedding: [1, Number.NaN, 0] }),
        'invalid-input',
        /\[1\] must be a finite number/,
      );
      await rejectsWith(store.query({ ...q, embedding: [1, Infinity, 0] }), 'invalid-input');
      for (const topK of [0, 1_001, 1.5, Number.NaN])
        await rejectsWith(store.query({ ...q, topK }), 'invalid-input', /topK/);
      await rejectsWith(store.query({ ...q, owner: '' }), 'invalid-input', /owner/);
      await rejectsWith(store.query({ ...q, minScore: Number.NaN }), 'invalid-input', /minScore/);
      await rejectsWith(store.has('', ['a']), 'invalid-input', /owner/);
      await rejectsWith(store.count(''), 'invalid-input', /owner/);
      await rejectsWith(store.delete({ owner: '' }), 'invalid-input', /owner/);
      await rejectsWith(
        store.upsert([entry({ id: '', embedding: [1, 0, 0] })]),
        'invalid-input',
        /id/,
      );
      await rejectsWith(
        store.upsert([entry({ id: 'a', embedding: [1, 0, 0], kind: 'note' as RecallKind })]),
        'invalid-input',
        /kind/,
      );
      await rejectsWith(
        store.upsert([entry({ id: 'a', embedding: [1, 0, 0], createdAt: 1.5 })]),
        'invalid-input',
        /createdAt/,
      );
      // All or none: a bad entry anywhere stores nothing.
      await rejectsWith(
        store.upsert([
          entry({ id: 'ok', embedding: [1, 0, 0] }),
          entry({ id: 'bad', embedding: [0, 0, 0] }),
        ]),
        'invalid-input',
        /entries\[1\]/,
      );
      expect(await store.count()).toBe(0);
      await store.upsert([entry({ id: 'ok', embedding: [1e-30, 0, 0] })]);
      expect((await store.query({ ...q, embedding: [5, 0, 0] }))[0]?.score).toBeCloseTo(1, 5);
    });

    test('a closed store refuses every call with closed', async () => {
      await store.upsert([entry({ id: 'a', embedding: [1, 0, 0] })]);
      await store.close();
      await store.close();
      await rejectsWith(store.upsert([entry({ id: 'b', embedding: [1, 0, 0] })]), 'closed');
      await rejectsWith(store.query({ owner: 'alice', embedding: [1, 0, 0], topK: 1 }), 'closed');
      await rejectsWith(store.has('alice', ['a']), 'closed');
      await rejectsWith(store.delete({ owner: 'alice' }), 'closed');
      await rejectsWith(store.count(), 'closed');
      await rejectsWith(store.migrate(), 'closed');
    });

    const persistent = options.persistent ? test : undefined;
    persistent?.('reopened, finds what was stored; another size is refused', async () => {
      if (subject.reopen === undefined) throw new Error('a persistent subject needs reopen');
      const first = await store.migrate();
      expect(first.applied.length + first.from).toBe(first.to);
      expect(await store.migrate()).toEqual({ from: first.to, to: first.to, applied: [] });
      await store.upsert([entry({ id: 'kept', embedding: [0, 1, 0], metadata: { a: 'b' } })]);
      await store.close();
      const again = subject.reopen();
      try {
        const hits = await again.query({ owner: 'alice', embedding: [0, 1, 0], topK: 1 });
        expect(hits[0]?.entry).toMatchObject({ id: 'kept', metadata: { a: 'b' } });
        const wider = subject.reopen(4);
        await rejectsWith(wider.count(), 'invalid-options', /hold 3-dimension.*expected 3, got 4/);
        await wider.close();
      } finally {
        await again.close();
      }
    });

    topKProperty(factory);
  });
}
