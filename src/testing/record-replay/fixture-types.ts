/** The fixture format version this golem writes and reads. */
export const FIXTURE_VERSION = 1;

/** One frame of an AWS event stream (`application/vnd.amazon.eventstream`), decoded. */
export interface FixtureFrame {
  /** The frame's string headers, e.g. `:event-type`, `:message-type`, `:content-type`. */
  headers: Record<string, string>;
  /** The payload, when it is JSON. */
  payload?: unknown;
  /** The payload as text, when it is not JSON. */
  payloadText?: string;
}

/** A recorded request. Credentials are never part of it. */
export interface FixtureRequest {
  /** HTTP method, e.g. `POST`. */
  method: string;
  /** The full URL, secret query values replaced by `[redacted]`. */
  url: string;
  /** Request headers without credentials and per-call noise (informative; never matched). */
  headers?: Record<string, string>;
  /** The body, when it is JSON. */
  body?: unknown;
  /** The body as text, when it is not JSON. */
  bodyText?: string;
}

/** A recorded response. At most one body field is present; none means an empty body. */
export interface FixtureResponse {
  /** HTTP status, 200–599. */
  status: number;
  /** The kept response headers (content type, retry hints). */
  headers?: Record<string, string>;
  /** A JSON body, parsed (served back as compact JSON). */
  body?: unknown;
  /** A text body (server-sent events, plain text) as lines; served joined with `\n`. */
  bodyText?: string[];
  /** An AWS event-stream body as decoded frames; served re-encoded, one chunk per frame. */
  bodyFrames?: FixtureFrame[];
  /** A binary body as base64 chunks, served one chunk each. */
  bodyBase64?: string[];
  /** Set when the body failed after what is recorded: replay fails the stream the same way. */
  interrupted?: string;
}

/** One request and the response it got. */
export interface FixtureExchange {
  request: FixtureRequest;
  response: FixtureResponse;
}

/** A fixture file: the exchanges of one recording, in request order. */
export interface Fixture {
  /** Format version; always `1` (the only format this golem reads and writes). */
  golemFixture: 1;
  /** A name for messages (defaults to the file's base name). */
  name: string;
  exchanges: FixtureExchange[];
}

/** A fixture object, or the path of a fixture file. */
export type FixtureSource = Fixture | string;
