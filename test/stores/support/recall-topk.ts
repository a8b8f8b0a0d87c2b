/**
 * The recall-store property: a store's top k equals an exact brute-force search over the same
 * entries (ties, within float32 rounding, in any order).
 */
import fc from 'fast-check';
import type {
  RecallEntry,
  RecallHit,
  RecallKind,
  RecallQuery,
  RecallStore,
} from '../../../src/core/durable/recall-port';

/** Opens a fresh store of `dimensions` (the contract's factory fits). */
type Factory = (dimensions: number) => Promise<{ store: RecallStore; cleanup(): Promise<void> }>;

/** An entry with defaults (as the contract's). */
function entry(over: Partial<RecallEntry> & { id: string; embedding: number[] }): RecallEntry {
  return { owner: 'alice', kind: 'message', text: `text of ${over.id}`, createdAt: 1_000, ...over };
}

const ids = (hits: RecallHit[]) => hits.map((h) => h.entry.id);

/** The exact reference: unit vectors rounded to 32-bit floats, dot in float64. */
function unit(v: readonly number[]): number[] {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

function reference(entries: RecallEntry[], q: RecallQuery): { id: string; score: number }[] {
  const query = unit(q.embedding);
  const latest = new Map(entries.map((e) => [e.id, e]));
  return [...latest.values()]
    .filter(
      (e) =>
        e.owner === q.owner &&
        (q.kinds === undefined || q.kinds.includes(e.kind)) &&
        (q.conversationId === undefined || e.conversationId === q.conversationId) &&
        (q.excludeConversationId === undefined || e.conversationId !== q.excludeConversationId),
    )
    .map((e) => ({
      id: e.id,
      score: unit(e.embedding).reduce((s, x, i) => s + Math.fround(x) * (query[i] as number), 0),
    }))
    .sort((a, b) => b.score - a.score);
}

const EPS = 1e-5;

/** Registers the property test against `factory`'s stores. */
export function topKProperty(factory: Factory): void {
  test('top k equals an exact brute-force search (ties in any order)', async () => {
    const dims = 4;
    const sized = await factory(dims);
    let run = 0;
    const vector = fc
      .array(fc.integer({ min: -4, max: 4 }), { minLength: dims, maxLength: dims })
      .filter((v) => v.some((x) => x !== 0));
    const kinds = fc.constantFrom<RecallKind>('message', 'document');
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'),
              other: fc.boolean(),
              kind: kinds,
              conversationId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
              embedding: vector,
            }),
            { minLength: 1, maxLength: 25 },
          ),
          fc.record({
            embedding: vector,
            topK: fc.integer({ min: 1, max: 8 }),
            conversationId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
            excludeConversationId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
            kinds: fc.option(fc.subarray<RecallKind>(['message', 'document']), {
              nil: undefined,
            }),
            minScore: fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
          }),
          async (rows, query) => {
            run += 1;
            const owner = `run${run}`;
            const entries = rows.map((r) =>
              entry({
                id: r.id,
                owner: r.other ? `${owner}-other` : owner,
                kind: r.kind,
                embedding: r.embedding,
                ...(r.conversationId !== undefined && { conversationId: r.conversationId }),
              }),
            );
            await sized.store.upsert(entries);
            const q: RecallQuery = { owner, ...withoutUndefined(query) };
            const got = await sized.store.query(q);
            const all = reference(
              entries.filter((e) => e.owner === owner),
              q,
            );
            const min = q.minScore;
            const sure = all.filter((r) => min === undefined || r.score >= min + EPS);
            const maybe = all.filter((r) => min === undefined || r.score >= min - EPS);
            expect(got.length).toBeGreaterThanOrEqual(Math.min(q.topK, sure.length));
            expect(got.length).toBeLessThanOrEqual(Math.min(q.topK, maybe.length));
            const scoreOf = new Map(all.map((r) => [r.id, r.score]));
            expect(new Set(ids(got)).size).toBe(got.length);
            got.forEach((hit, i) => {
              expect(hit.entry.owner).toBe(owner);
              const exact = scoreOf.get(hit.entry.id);
              expect(exact).toBeDefined();
              expect(Math.abs(hit.score - (exact ?? NaN))).toBeLessThan(EPS);
              // Position i holds a score equal (within rounding) to the reference's i-th best.
              expect(Math.abs((exact ?? NaN) - (all[i]?.score ?? NaN))).toBeLessThan(EPS);
            });
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      await sized.cleanup();
    }
  });
}

function withoutUndefined<T extends object>(
  value: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as never;
}
