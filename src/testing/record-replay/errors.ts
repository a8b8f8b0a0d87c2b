import { GolemError, brandGuard } from '../../core/kit/error-base';
import { ConfigError } from '../../core/kit/config-error';

/** A record or replay option is invalid: a {@link ConfigError} of component `testing`. */
export function testingConfigError(message: string): ConfigError {
  return new ConfigError(message, { component: 'testing' });
}

/**
 * A replayed request differs from the recorded one it was served against: the adapter's request
 * changed (or the test sends something else). `path` locates the first difference, e.g.
 * `body.messages[0].content`, `url` or `method`.
 */
export class ReplayMismatchError extends GolemError {
  /** The fixture's name. */
  readonly fixture: string;
  /** 1-based position of the recorded exchange the request was compared with. */
  readonly exchange: number;
  /** Where the request first differs: `method`, `url`, `body` or a path inside the body. */
  readonly path: string;
  /** A short rendering of the recorded value (`(absent)` when missing). */
  readonly recorded: string;
  /** A short rendering of the value in the request (`(absent)` when missing). */
  readonly received: string;

  constructor(fixture: string, exchange: number, path: string, recorded: string, received: string) {
    super(
      'ReplayMismatchError',
      `replay "${fixture}": request ${exchange} differs from the recording at ${path}: recorded ${recorded}, received ${received}; record the fixture again if the request changed on purpose, or replay with match: 'sequence' to skip the body check`,
    );
    this.fixture = fixture;
    this.exchange = exchange;
    this.path = path;
    this.recorded = recorded;
    this.received = received;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ReplayMismatchError>('ReplayMismatchError');
}

/**
 * Requests and recordings do not pair up: a request arrived after every recorded exchange was
 * served (`reason: 'extra'`), or {@link ReplayFetch.assertDone} found exchanges never requested
 * (`reason: 'unused'`).
 */
export class ReplayUnmatchedError extends GolemError {
  /** `extra`: one request too many; `unused`: recorded exchanges left over. */
  readonly reason: 'extra' | 'unused';
  /** The fixture names the replay serves, comma-separated. */
  readonly fixture: string;
  /** How many exchanges were served when the error was raised. */
  readonly served: number;
  /** How many recorded exchanges the replay holds. */
  readonly recorded: number;

  constructor(reason: 'extra' | 'unused', fixture: string, served: number, recorded: number) {
    super(
      'ReplayUnmatchedError',
      reason === 'extra'
        ? `replay "${fixture}": request ${served + 1} has no recorded exchange (the fixture holds ${recorded}); the code under test made more calls than were recorded — record the fixture again, or pass onUnmatched to answer extra requests`
        : `replay "${fixture}": only ${served} of ${recorded} recorded exchanges were requested; the code under test made fewer calls than were recorded — record the fixture again, or remove the unused exchanges`,
    );
    this.reason = reason;
    this.fixture = fixture;
    this.served = served;
    this.recorded = recorded;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ReplayUnmatchedError>('ReplayUnmatchedError');
}

/** A fixture file that is not a valid golem fixture: bad JSON, unknown version, a wrong field. */
export class FixtureFormatError extends GolemError {
  /** The file (or `(value)` for an object passed directly). */
  readonly source: string;
  /** The offending field, e.g. `exchanges[1].response.status`. */
  readonly path: string;

  constructor(source: string, path: string, problem: string) {
    super(
      'FixtureFormatError',
      `fixture ${source}: ${path === '' ? '' : `${path} `}${problem}; see "Record once, replay offline" in docs/guides/testing.md for the format`,
    );
    this.source = source;
    this.path = path;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<FixtureFormatError>('FixtureFormatError');
}

/**
 * A recording would have written a secret: a binary body (one that is not an event stream the
 * kit can decode) contains one, and binary cannot be redacted. Nothing was written.
 */
export class FixtureSecretError extends GolemError {
  /** The fixture's name. */
  readonly fixture: string;

  constructor(fixture: string, where: string) {
    super(
      'FixtureSecretError',
      `recording "${fixture}": ${where} contains a secret that cannot be redacted, so the fixture was not written; record an exchange whose response does not echo the credential`,
    );
    this.fixture = fixture;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<FixtureSecretError>('FixtureSecretError');
}
