import { testingConfigError, ReplayMismatchError, ReplayUnmatchedError } from './errors';
import { concat, everyBytes, requestBodyValue, resplit, responseChunks } from './body-codec';
import { firstDifference, preview } from './diff';
import type { Fixture, FixtureExchange } from './fixture-types';
import { pathOf, redactUrl } from './redaction';

/** How replay pairs a request with the next recorded exchange. */
export type ReplayMatch = 'body' | 'sequence';

/** Options shared by `replayFetch` and `replayHandler`. */
export interface ReplayOptions {
  /**
   * `body` (default): the method, the URL's path and query, and the JSON body must equal the
   * recording. `sequence`: exchanges are served in order; only the method and path are checked.
   */
  match?: ReplayMatch;
  /**
   * Re-split each response body: a number cuts it every that many bytes (1 = byte by byte); a
   * function returns the byte offsets to cut at. Default: one chunk per server-sent event,
   * event-stream frame or recorded chunk; JSON bodies whole.
   */
  split?: number | ((body: Uint8Array) => readonly number[]);
}

/** A request as replay sees it. */
export interface ReplayRequest {
  method: string;
  url: string;
  /** The body text, if any. */
  body: string | undefined;
}

/** The recorded exchange chosen for a request, with its body in the chunks to serve. */
export interface ServedExchange {
  exchange: FixtureExchange;
  chunks: Uint8Array[];
}

/**
 * The recorded exchanges of one replay, served in order. Every mismatch or extra request is
 * remembered, so {@link ReplayQueue.assertDone} reports it even when the caller's adapter wrapped
 * the thrown error in its own.
 */
export class ReplayQueue {
  private readonly exchanges: { fixture: string; exchange: FixtureExchange }[];
  private readonly names: string;
  private readonly match: ReplayMatch;
  private readonly split: ReplayOptions['split'];
  private next = 0;
  private readonly failures: Error[] = [];

  constructor(fixtures: readonly Fixture[], options: ReplayOptions) {
    const match: unknown = options.match ?? 'body';
    if (match !== 'body' && match !== 'sequence')
      throw testingConfigError(`replay: match must be 'body' or 'sequence', got ${preview(match)}`);
    const split = options.split;
    if (
      split !== undefined &&
      typeof split !== 'function' &&
      !(Number.isInteger(split) && split >= 1)
    )
      throw testingConfigError(
        'replay: split must be a positive integer or a function of the body',
      );
    this.match = match;
    this.split = split;
    this.names = fixtures.map((f) => f.name).join(', ');
    this.exchanges = fixtures.flatMap((f) =>
      f.exchanges.map((exchange) => ({ fixture: f.name, exchange })),
    );
  }

  /** Exchanges served so far. */
  get served(): number {
    return this.next;
  }

  /** Recorded exchanges not served yet. */
  get remaining(): number {
    return this.exchanges.length - this.next;
  }

  /**
   * The exchange for `request`, or the error it does not match: `ReplayMismatchError`
   * (the next exchange differs) or `ReplayUnmatchedError` (none is left). An unmatched
   * request consumes nothing.
   */
  take(request: ReplayRequest): ServedExchange | ReplayMismatchError | ReplayUnmatchedError {
    const entry = this.exchanges[this.next];
    if (entry === undefined)
      return new ReplayUnmatchedError('extra', this.names, this.next, this.exchanges.length);
    const mismatch = this.compare(entry.fixture, entry.exchange, request);
    if (mismatch !== undefined) return mismatch;
    this.next++;
    return { exchange: entry.exchange, chunks: this.chunks(entry.exchange) };
  }

  /** Remembers an error raised to the caller, for {@link ReplayQueue.assertDone}. */
  fail(error: Error): Error {
    this.failures.push(error);
    return error;
  }

  /**
   * Throws the first mismatch or extra request seen, or a `ReplayUnmatchedError` when
   * recorded exchanges were never requested. Call it at the end of a test.
   */
  assertDone(): void {
    const first = this.failures[0];
    if (first !== undefined) throw first;
    if (this.remaining > 0)
      throw new ReplayUnmatchedError('unused', this.names, this.next, this.exchanges.length);
  }

  private compare(
    fixture: string,
    exchange: FixtureExchange,
    request: ReplayRequest,
  ): ReplayMismatchError | undefined {
    const position = this.next + 1;
    const recorded = exchange.request;
    const mismatch = (path: string, a: string, b: string): ReplayMismatchError =>
      new ReplayMismatchError(fixture, position, path, a, b);
    if (recorded.method.toUpperCase() !== request.method.toUpperCase())
      return mismatch('method', preview(recorded.method), preview(request.method));
    const recordedPath = pathOf(recorded.url);
    const receivedPath = pathOf(redactUrl(request.url, []));
    if (recordedPath !== receivedPath)
      return mismatch('url', preview(recordedPath), preview(receivedPath));
    if (this.match === 'sequence') return undefined;
    const received = requestBodyValue(request.body);
    const difference =
      'body' in recorded || 'body' in received
        ? firstDifference(recorded.body, received.body, 'body')
        : firstDifference(recorded.bodyText, received.bodyText, 'bodyText');
    if (difference === undefined) return undefined;
    return mismatch(difference.path, difference.recorded, difference.received);
  }

  private chunks(exchange: FixtureExchange): Uint8Array[] {
    const natural = responseChunks(exchange.response);
    const split = this.split;
    if (split === undefined) return natural;
    const body = concat(natural);
    return resplit(
      [body],
      typeof split === 'number' ? everyBytes(split, body.length) : split(body),
    );
  }
}
