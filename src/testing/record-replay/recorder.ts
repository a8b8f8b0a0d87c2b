import { basename, extname, join } from 'node:path';
import { testingConfigError, FixtureSecretError } from './errors';
import { encodeRequestBody, encodeResponseBody } from './body-codec';
import { saveFixture, serializeFixture } from './fixture';
import { FIXTURE_VERSION, type Fixture, type FixtureExchange } from './fixture-types';
import {
  KEPT_RESPONSE_HEADERS,
  holdsSecret,
  keptResponseHeaders,
  redact,
  redactUrl,
  redactValue,
  splitRequestHeaders,
} from './redaction';

/** Where and how a recording is written. */
export interface RecordOptions {
  /** The fixture file to write (rewritten after every completed exchange). */
  file?: string;
  /** A folder to write `<name>.json` into; needs `name`. Exclusive with `file`. */
  dir?: string;
  /** The fixture's name; default the file's base name, or `recording` when nothing is written. */
  name?: string;
  /**
   * Values that must never be written (API keys, tokens). The values of credential headers are
   * added automatically; list here what could appear elsewhere.
   */
  secrets?: readonly string[];
  /** More request headers to leave out (case-insensitive), besides the credential headers. */
  redactHeaders?: readonly string[];
  /** More response headers to keep, besides content type and the retry and error-type headers. */
  keepHeaders?: readonly string[];
}

/** A request as it left the caller, before any redaction. */
export interface CapturedRequest {
  method: string;
  url: string;
  headers: Iterable<readonly [string, string]>;
  body: string | undefined;
}

/** A response as the transport delivered it, before any redaction. */
export interface CapturedResponse {
  status: number;
  headers: Iterable<readonly [string, string]>;
  chunks: Uint8Array[];
  interrupted?: string;
}

/** One exchange being recorded. */
export interface RecordingSlot {
  readonly request: FixtureExchange['request'] & { rawBody: string | undefined };
  response?: CapturedResponse & { headers: [string, string][] };
}

/**
 * Collects exchanges in request order and writes the fixture — credentials dropped, secrets
 * redacted — each time one completes. Shared by the fetch and Smithy-handler recorders.
 */
export class FixtureRecorder {
  /** The fixture's name. */
  readonly name: string;
  /** The file written after each exchange, or `undefined` for an in-memory recording. */
  readonly file: string | undefined;
  private readonly slots: RecordingSlot[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly secrets: string[];
  private readonly dropHeaders: ReadonlySet<string>;
  private readonly keepHeaders: ReadonlySet<string>;
  private failure: Error | undefined;

  constructor(options: RecordOptions) {
    if (options.file !== undefined && options.dir !== undefined)
      throw testingConfigError('record: set either file or dir (with name), not both');
    if (options.dir !== undefined && (options.name === undefined || options.name === ''))
      throw testingConfigError(
        'record: dir needs a name; the fixture is written to <dir>/<name>.json',
      );
    const secrets: readonly unknown[] = options.secrets ?? [];
    if (!Array.isArray(secrets) || secrets.some((s) => typeof s !== 'string'))
      throw testingConfigError('record: secrets must be an array of strings');
    this.file =
      options.file ??
      (options.dir === undefined ? undefined : join(options.dir, `${options.name ?? ''}.json`));
    this.name =
      options.name ??
      (this.file === undefined ? 'recording' : basename(this.file, extname(this.file)));
    this.secrets = (secrets as readonly string[]).filter((s) => s !== '');
    this.dropHeaders = lowerSet(options.redactHeaders);
    this.keepHeaders = new Set([...KEPT_RESPONSE_HEADERS, ...lowerSet(options.keepHeaders)]);
  }

  /** Reserves the request's place in the fixture; its credential header values become secrets. */
  begin(request: CapturedRequest): RecordingSlot {
    const { kept, secrets } = splitRequestHeaders(request.headers, this.dropHeaders);
    for (const secret of secrets)
      if (secret !== '' && !this.secrets.includes(secret)) this.secrets.push(secret);
    const slot: RecordingSlot = {
      request: {
        method: request.method.toUpperCase(),
        url: request.url,
        headers: kept,
        rawBody: request.body,
      },
    };
    this.slots.push(slot);
    return slot;
  }

  /** Drops a request that got no response (a transport failure). */
  abandon(slot: RecordingSlot): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
  }

  /** Records the response of `slot` and rewrites the file. */
  complete(slot: RecordingSlot, response: CapturedResponse): void {
    slot.response = { ...response, headers: [...response.headers].map(([n, v]) => [n, v]) };
    try {
      const fixture = this.fixture();
      const text = serializeFixture(fixture);
      if (holdsSecret(text, this.secrets)) throw new FixtureSecretError(this.name, 'the fixture');
      if (this.file !== undefined) saveFixture(this.file, fixture);
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    }
  }

  /** Keeps `work` (a body being captured) until {@link FixtureRecorder.settled}. */
  track(work: Promise<void>): void {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Waits for every body being captured, then returns the fixture (or the first write failure). */
  async settled(): Promise<Fixture> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    if (this.failure !== undefined) throw this.failure;
    return this.fixture();
  }

  /** The completed exchanges as a fixture, in request order, secrets redacted. */
  fixture(): Fixture {
    const exchanges: FixtureExchange[] = [];
    for (const slot of this.slots) {
      const response = slot.response;
      if (response === undefined) continue;
      const { rawBody, ...request } = slot.request;
      const headers = keptResponseHeaders(response.headers, this.keepHeaders, this.secrets);
      const body = encodeResponseBody(
        response.chunks,
        headers['content-type'],
        this.secrets,
        this.name,
      );
      exchanges.push({
        request: {
          ...request,
          url: redactUrl(request.url, this.secrets),
          headers: redactValue(request.headers, this.secrets) as Record<string, string>,
          ...encodeRequestBody(rawBody, this.secrets),
        },
        response: {
          status: response.status,
          headers,
          ...body,
          ...(response.interrupted === undefined
            ? {}
            : { interrupted: redact(response.interrupted, this.secrets) }),
        },
      });
    }
    return { golemFixture: FIXTURE_VERSION, name: this.name, exchanges };
  }
}

function lowerSet(names: readonly string[] | undefined): Set<string> {
  return new Set((names ?? []).map((name) => name.toLowerCase()));
}
