/**
 * The `fetch` an adapter uses: the platform's `fetch`, or one you inject to record, proxy or test
 * (`golem/testing`'s `recordFetch`/`replayFetch` are two). A third-party adapter takes one too.
 */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
