import { GolemError, brandGuard } from '../../core/kit/error-base';
import { ConfigError } from '../../core/kit/config-error';
import { ModelRetry } from '../../core/errors/errors';

/**
 * A {@link fileRead} option is invalid: a {@link ConfigError} of component `fileread`; `option`
 * names it.
 */
export function fileReadConfigError(option: string, message: string): ConfigError {
  return new ConfigError(`fileRead: ${message}`, { component: 'fileread', option });
}

const PATH_BRAND = Symbol.for('golem.tools.fileread.PathOutsideRootError');

/**
 * The requested path is not a path inside the workspace root: absolute, a `..` segment, a drive
 * letter, `~`, control or bidirectional characters, or a symbolic link resolving outside the
 * root. It is a {@link ModelRetry} (`ModelRetry.is` is true, `kind` is `ModelRetry`), so the
 * model is told why and may correct the path; {@link PathOutsideRootError.is} tells it apart.
 */
export class PathOutsideRootError extends ModelRetry {
  /** The path as the model sent it. */
  readonly path: string;

  constructor(path: string, reason: string) {
    super(reason);
    this.name = 'PathOutsideRootError';
    this.path = path;
    Object.defineProperty(this, PATH_BRAND, { value: true, enumerable: false });
  }

  /** Brand check that works across package copies. */
  static override is(value: unknown): value is PathOutsideRootError {
    return (
      ModelRetry.is(value) && (value as unknown as Record<symbol, unknown>)[PATH_BRAND] === true
    );
  }
}

/**
 * The file's sniffed content type is not UTF-8 text (an image, an archive, NUL bytes, UTF-16…).
 * An environment fact, not a correctable mistake: the run fails at the tool stage.
 */
export class UnsupportedContentError extends GolemError {
  /** The path as the model sent it. */
  readonly path: string;
  /** The sniffed content type, e.g. `image/png` or `application/octet-stream`. */
  readonly contentType: string;

  constructor(path: string, contentType: string) {
    super(
      'UnsupportedContentError',
      `fileread: ${JSON.stringify(path)} is not UTF-8 text (sniffed ${contentType})`,
    );
    this.path = path;
    this.contentType = contentType;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UnsupportedContentError>('UnsupportedContentError');
}

/** A file-system failure other than a path mistake (permissions, I/O). `cause` holds the fs error. */
export class FileReadError extends GolemError {
  /** The path as the model sent it. */
  readonly path: string;

  constructor(path: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super('FileReadError', `fileread: cannot read ${JSON.stringify(path)}: ${detail}`, { cause });
    this.path = path;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<FileReadError>('FileReadError');
}
