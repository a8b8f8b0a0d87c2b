import { GolemError, brandGuard } from '../kit/error-base';

/**
 * The consumer of a streaming run stopped reading; the run is aborted with this error as the
 * signal's reason and ends at the stage it was in (`model` while a turn streams).
 */
export class StreamAbandonedError extends GolemError {
  constructor(message = 'the stream consumer stopped reading') {
    super('StreamAbandonedError', message);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<StreamAbandonedError>('StreamAbandonedError');
}
